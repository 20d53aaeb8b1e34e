// TcpBootstrap's private state and frame types, shared by its two source files: the collectives
// (tcp_bootstrap.cpp) and the failure settlement (tcp_bootstrap_failure.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/socket.hpp"
#include "core/tcp_bootstrap.hpp"

namespace dlcnet {

enum BootstrapFrame : uint16_t {
  kHello = 1,
  kWelcome = 2,
  kReject = 3,
  kCollective = 4,
  kResult = 5,
  kAbort = 6,   // rank 0 to the others: the job's cause of failure (a string)
  kFailed = 7,  // a rank to rank 0: this rank is failing, and why (a string)
};

struct TcpBootstrap::Impl {
  Socket listener;                 // rank 0
  std::vector<Socket> peers;       // rank 0: index = rank; others: [0] = coordinator
  std::vector<std::string> names;  // printable peer names, same indexing
  uint64_t round = 0;
  bool joined = false;
  // Rank 0: what each rank reported with kFailed, in the order the reports came.
  std::vector<std::pair<int, std::string>> reports;
  std::string verdict;  // the job's cause of failure, once this rank knows it
};

// The connection to a peer has ended (the peer exited or was killed): why, or nothing while
// it is open (with or without data waiting). Never blocks.
std::optional<std::string> connection_lost(const Socket& s);

}  // namespace dlcnet
