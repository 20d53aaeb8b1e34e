// TcpBootstrap's private state and frame types, shared by its two source files: the collectives
// (tcp_bootstrap.cpp) and the failure settlement (tcp_bootstrap_failure.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
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
  kFailed = 7,  // a rank to rank 0: this rank is failing, why, in which phase (2 strings) and
                // the ranks it ran out of time waiting for (u32 count, then each a u32)
};

// Bounds on what a peer may claim before anything is allocated for it. A hello is 16 bytes;
// rank 0's answer to it (a welcome, or a reject with its reason) at most kJoinReplyMax; a
// failure report two strings of at most 4 KiB and at most kWaitedMax ranks. Collectives carry the
// ranks' blobs and are bounded by kWireMaxPayload (their memory grows only as bytes arrive:
// FrameReader).
inline constexpr uint32_t kHelloMax = 64;
inline constexpr uint32_t kReasonMax = 1024;  // a reject's reason, truncated to this
inline constexpr uint32_t kJoinReplyMax = 4 + kReasonMax;
inline constexpr uint32_t kWaitedMax = 64;  // ranks a failure report names as waited for
inline constexpr uint32_t kReportMax = 2 * (4 + 4096) + 4 + 4 * kWaitedMax;
// Rank 0 holds at most this many connections that have not said hello yet beyond the ranks
// still missing; a connection arriving beyond that turns the oldest waiting one away (a flood
// of idle connections cannot use up rank 0's descriptors or keep real ranks in the backlog).
inline constexpr size_t kSpareArrivals = 64;
// The reason rank 0 gives a connection it turns away to make room (the oldest waiting): a real
// rank that hears it was only slow to say hello under a flood, and connects again.
inline constexpr std::string_view kMakeRoomReason = "connections waiting to say hello";

// What a failing rank reported to rank 0 (a kFailed frame).
struct FailureReport {
  int rank;
  std::string phase, why;
  std::vector<int> waited_on;  // the ranks it ran out of time waiting for (StallError)
};

struct TcpBootstrap::Impl {
  Socket listener;                 // rank 0
  std::vector<Socket> peers;       // rank 0: index = rank; others: [0] = coordinator
  std::vector<std::string> names;  // printable peer names, same indexing
  uint64_t round = 0;
  bool joined = false;
  // Rank 0: what each rank reported with kFailed, in the order the reports came.
  std::vector<FailureReport> reports;
  int64_t first_report_ns = 0;  // when the first of them came (now_ns()), 0: none yet
  std::string phase;            // the job's step this rank is in (set_phase())
  std::string verdict;          // the job's cause of failure, once this rank knows it
  BootstrapTraffic traffic;
};

// Rank 0's reading of a connection's first frame (its hello: rank, world size, job token): the
// rank it names, or -1 with `reason` saying why the connection is to be turned away (not a
// hello, malformed, another job's token or world size, a rank out of range, or one that
// `joined` already). A free function so that a fuzz target can reach it (tests/fuzz).
int decode_hello(const Frame& f, const std::string& from, uint64_t job_token, int size,
                 const std::function<bool(int)>& joined, std::string& reason);

// A collective's payload (round, count, the blobs) from `peer`: exactly `want_count` blobs of
// round `want_round`, or ProtocolError.
std::vector<Bytes> decode_blobs(const Bytes& payload, uint64_t want_round, size_t want_count,
                                const std::string& peer);

// The connection to a peer has ended (the peer exited or was killed): why, or nothing while
// it is open (with or without data waiting). Never blocks.
std::optional<std::string> connection_lost(const Socket& s);

// "<who> <what> during <phase>: <why>" ("<who> <what>: <why>" where the phase is unknown), e.g.
// "rank 3 (127.0.0.1:4242) is gone during run: connection closed (process exited or killed)".
std::string failure_text(const std::string& who, const char* what, const std::string& phase,
                         const std::string& why);
// The kFailed frame's payload: why this rank fails, in which phase, and the ranks it waited for
// (a rank outside [0, size) is a ProtocolError).
FailureReport read_report(int rank, const Frame& failed, const std::string& peer, int size);

// The rank that stopped without leaving (a frozen process: its connections stay open, so only
// the waits tell), found by following the waits from rank `from`'s (rank 0 or the first to
// report), breadth first: a rank that reported a wait leads to the ranks it waited for; the
// first rank reached that sent no report is the one. Nothing where no trail reaches one: they
// end at ranks that failed for other reasons (the first report is then the cause), or loop.
// `root_waited_on`: rank 0's own wait, empty when rank 0 fails for another reason.
struct Stopped {
  int rank = -1;    // the rank that stopped, or -1
  int waiter = -1;  // the rank on the trail that waited for it
};
Stopped stopped_rank(int from, const std::vector<FailureReport>& reports,
                     const std::vector<int>& root_waited_on, int size);

}  // namespace dlcnet
