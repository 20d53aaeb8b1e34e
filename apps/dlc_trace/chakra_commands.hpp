// validate, stats and convert on a Chakra job (a directory of <name>.<rank>.et files): the
// subcommands pick these when trace/chakra/chakra_files.hpp's is_chakra_input() says so.
#pragma once

#include <string>
#include <vector>

#include "apps/dlc_trace/commands.hpp"
#include "trace/chakra/chakra_collectives.hpp"

namespace dlcnet::trace::cli {

int run_chakra_validate(const std::vector<std::string>& inputs, size_t keep, bool quiet);

struct ChakraStatsOptions {
  std::vector<std::string> inputs;
  std::string json;  // '-': standard output
  bool force = false;
  bool quiet = false;
  chakra::CollectiveOptions collectives;
};
int run_chakra_stats(const ChakraStatsOptions& o, Argv args);

// convert: a Chakra job (ET files or native version 2) to one native version 2 CSV file; `to`
// empty or "native".
int run_chakra_convert(const std::vector<std::string>& inputs, const std::string& out,
                       const std::string& to, bool force);

}  // namespace dlcnet::trace::cli
