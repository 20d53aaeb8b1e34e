// validate, stats and convert on a Chakra job (a directory of <name>.<rank>.et files): the
// subcommands pick these when trace/chakra/chakra_files.hpp's is_chakra_input() says so.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "apps/dlc_trace/commands.hpp"
#include "trace/chakra/chakra_collectives.hpp"
#include "trace/chakra/chakra_loader.hpp"

namespace dlcnet::trace::cli {

// load_or_report() for a Chakra job: on errors prints them to stderr and returns nullopt
// unless `force`. `comm_groups`: ASTRA-sim's communicator-group file (none when empty).
std::optional<chakra::LoadResult> load_chakra_or_report(std::span<const std::string> inputs,
                                                        bool force,
                                                        const std::string& comm_groups = "");

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

// convert: a Chakra job (ET files or native version 2) to one native version 2 CSV file; `to`
// empty or "native".
int run_chakra_convert(const std::vector<std::string>& inputs, const std::string& out,
                       const std::string& to, bool force);

}  // namespace dlcnet::trace::cli
