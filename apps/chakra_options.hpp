// --coll-size, --root and --comm-groups, the same options in every tool that reads Chakra jobs
// (dlc-trace stats, dlc-replay): the readings docs/chakra.md states where Chakra leaves the choice
// open.
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
  std::string comm_groups;

  trace::chakra::CollectiveOptions options() const {
    trace::chakra::CollectiveOptions o;
    o.size_reading = coll_size == "whole" ? trace::chakra::SizeReading::kWhole
                                          : trace::chakra::SizeReading::kPerRank;
    o.root = root;
    o.comm_groups = comm_groups;
    return o;
  }
};

// --comm-groups, also taken by dlc-trace validate.
inline void add_comm_groups_option(CLI::App& app, std::string& path) {
  app.add_option("--comm-groups", path,
                 "Chakra jobs: ASTRA-sim's communicator-group file ({\"<pg_name>\": [ranks...]}), "
                 "the process groups the collectives' pg_name names, beside those the files' "
                 "'## process_group:init ##' nodes define");
}

inline void add_chakra_collective_options(CLI::App& app, ChakraCollectiveText& t) {
  app.add_option("--coll-size", t.coll_size,
                 "Chakra jobs: what comm_size means for all-gather, reduce-scatter, gather and "
                 "scatter: the whole buffer (ASTRA-sim's reading) or one rank's piece")
      ->check(CLI::IsMember({"whole", "per-rank"}))
      ->capture_default_str();
  app.add_option("--root", t.root,
                 "Chakra jobs: the root of broadcast, reduce, gather and scatter, as a rank of "
                 "the collective's process group (of the world when it names none)")
      ->check(whole<int32_t>(0))
      ->capture_default_str();
  add_comm_groups_option(app, t.comm_groups);
}

}  // namespace dlcnet::cli
