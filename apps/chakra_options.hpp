// --coll-size and --root, the same options in every tool that reads Chakra jobs (dlc-trace
// stats, dlc-replay): the readings docs/chakra.md states where Chakra leaves the choice open.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "apps/cli_number.hpp"
#include "trace/chakra/chakra_collectives.hpp"

namespace dlcnet::cli {

struct ChakraCollectiveText {
  std::string coll_size = "whole";
  int32_t root = 0;

  trace::chakra::CollectiveOptions options() const {
    trace::chakra::CollectiveOptions o;
    o.size_reading = coll_size == "whole" ? trace::chakra::SizeReading::kWhole
                                          : trace::chakra::SizeReading::kPerRank;
    o.root = root;
    return o;
  }
};

inline void add_chakra_collective_options(CLI::App& app, ChakraCollectiveText& t) {
  app.add_option("--coll-size", t.coll_size,
                 "Chakra jobs: what comm_size means for all-gather, reduce-scatter, gather and "
                 "scatter: the whole buffer (ASTRA-sim's reading) or one rank's piece")
      ->check(CLI::IsMember({"whole", "per-rank"}))
      ->capture_default_str();
  app.add_option("--root", t.root,
                 "Chakra jobs: the root rank of broadcast, reduce, gather and scatter")
      ->check(whole<int32_t>(0))
      ->capture_default_str();
}

}  // namespace dlcnet::cli
