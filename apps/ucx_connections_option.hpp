// --ucx-connections peer|direction, the same in every tool that runs ranks (dlc-bench fanin and
// ring, dlc-replay): how many connections UCX gives a pair of ranks (core/transport.hpp,
// TransportOptions::ucx_connection_per_direction). The tool's default is what `t` holds when
// the option is added.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/transport.hpp"

namespace dlcnet::cli {

inline void add_ucx_connections_option(CLI::App& app, TransportOptions& t) {
  app.add_option_function<std::string>(
         "--ucx-connections",
         [&t](const std::string& v) { t.ucx_connection_per_direction = v == "direction"; },
         "peer: one connection carries both directions between two ranks (UCX's own); "
         "direction: one per direction, as NCCL's send and receive connections, so over tcp "
         "the ACKs of the data a rank receives never wait behind the data it sends")
      ->check(CLI::IsMember({"peer", "direction"}))
      ->default_str(t.ucx_connection_per_direction ? "direction" : "peer");
}

}  // namespace dlcnet::cli
