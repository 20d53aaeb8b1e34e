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
  kFailed = 7,  // a rank to rank 0: this rank is failing, why and in which phase (2 strings)
};

// What a failing rank reported to rank 0 (a kFailed frame).
struct FailureReport {
  int rank;
  std::string phase, why;
};

struct TcpBootstrap::Impl {
  Socket listener;                 // rank 0
  std::vector<Socket> peers;       // rank 0: index = rank; others: [0] = coordinator
  std::vector<std::string> names;  // printable peer names, same indexing
  uint64_t round = 0;
  bool joined = false;
  // Rank 0: what each rank reported with kFailed, in the order the reports came.
  std::vector<FailureReport> reports;
  std::string phase;    // the job's step this rank is in (set_phase())
  std::string verdict;  // the job's cause of failure, once this rank knows it
  BootstrapTraffic traffic;
};

// The connection to a peer has ended (the peer exited or was killed): why, or nothing while
// it is open (with or without data waiting). Never blocks.
std::optional<std::string> connection_lost(const Socket& s);

// "<who> <what> during <phase>: <why>" ("<who> <what>: <why>" where the phase is unknown), e.g.
// "rank 3 (127.0.0.1:4242) is gone during run: connection closed (process exited or killed)".
std::string failure_text(const std::string& who, const char* what, const std::string& phase,
                         const std::string& why);
// The kFailed frame's payload: why this rank fails, and in which phase.
FailureReport read_report(int rank, const Frame& failed, const std::string& peer);

}  // namespace dlcnet
