// validate and stats on a Chakra job (a directory of <name>.<rank>.et files): the subcommands
// pick these when trace/chakra/chakra_files.hpp's is_chakra_input() says so.
#pragma once

#include <string>
#include <vector>

#include "apps/dlc_trace/commands.hpp"
#include "trace/chakra/chakra_collectives.hpp"

namespace dlcnet::trace::cli {

int run_chakra_validate(const std::vector<std::string>& inputs, size_t keep, bool quiet,
                        const std::string& comm_groups);

struct ChakraStatsOptions {
  std::vector<std::string> inputs;
  std::string json;  // '-': standard output
  bool force = false;
  bool quiet = false;
  chakra::CollectiveOptions collectives;
};
int run_chakra_stats(const ChakraStatsOptions& o, Argv args);

}  // namespace dlcnet::trace::cli
