// -c/--cpu, the same option in every tool that runs ranks (dlc-bench, dlc-replay): where each
// rank's thread runs (launch/cpu_binding.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "launch/cpu_list.hpp"

namespace dlcnet::cli {

// `short_c`: -c is --cpu's short name where the command has no other use for it.
inline CLI::Option* add_cpu_option(CLI::App& app, std::string& spec, bool short_c = true) {
  auto check = [](std::string& text) { return cpu_request_problem(text); };
  return app
      .add_option(short_c ? "-c,--cpu" : "--cpu", spec,
                  "auto: a core on the NUMA node of the RDMA device (hwloc); none; or a CPU "
                  "list such as 0-3,8 (each rank one CPU of it)")
      ->check(CLI::Validator(check, "{auto,none}|LIST"))
      ->capture_default_str();
}

}  // namespace dlcnet::cli
