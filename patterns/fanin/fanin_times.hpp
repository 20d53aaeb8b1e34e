// What each role of a fan-in run measured, on its own clock (now_ns()), and how it travels to
// rank 0 at the end.
#pragma once

#include <cstdint>
#include <vector>

#include "core/bytes.hpp"

namespace dlcnet::fanin {

// One round of a worker: when it saw the go, when it began (the instant reached), and per
// message of its burst the post, the send completion and (with --pull) the reply's arrival.
struct WorkerRound {
  uint32_t round = 0;  // index in schedule()
  int64_t go_seen_ns = 0;
  int64_t start_ns = 0;
  std::vector<int64_t> post_ns, complete_ns, pull_arrival_ns;
};

// A background rank: the post time of every message it streamed.
struct BackgroundTimes {
  std::vector<int64_t> post_ns;
};

// The server, per round: when it sent the go, the instant it named (0: barrier release), and
// per worker (index w - 1; empty when the worker had no part) each message's arrival and, with
// --pull, each reply's post.
struct ServerRound {
  int64_t go_ns = 0;
  int64_t target_ns = 0;
  std::vector<std::vector<int64_t>> arrival_ns, pull_post_ns;
};
struct ServerTimes {
  std::vector<ServerRound> rounds;
  std::vector<std::vector<int64_t>> bg_arrival_ns;  // per background rank, in order
  int64_t bg_start_ns = 0;                          // when the background was told to start
};

Bytes encode(const std::vector<WorkerRound>& w);
std::vector<WorkerRound> decode_worker(const Bytes& b, int rank);
Bytes encode(const BackgroundTimes& b);
BackgroundTimes decode_background(const Bytes& b, int rank);

}  // namespace dlcnet::fanin
