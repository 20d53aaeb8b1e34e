// The bootstrap configuration the tests of tests/core use: every rank on 127.0.0.1, one token.
#pragma once

#include <chrono>
#include <cstdint>

#include "core/tcp_bootstrap.hpp"

namespace dlcnet {

inline TcpBootstrapConfig local_config(int rank, int size, uint16_t port,
                                       std::chrono::milliseconds join_timeout,
                                       std::chrono::milliseconds op_timeout) {
  TcpBootstrapConfig c;
  c.rank = rank;
  c.size = size;
  c.coordinator_host = "127.0.0.1";
  c.bind_host = "127.0.0.1";
  c.port = port;
  c.job_token = 42;
  c.join_timeout = join_timeout;
  c.op_timeout = op_timeout;
  return c;
}

}  // namespace dlcnet
