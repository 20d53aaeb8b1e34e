// A point-to-point test is one small file implementing Pattern. The harness does everything
// else once: buffers, warm-up, sweeps, barriers, statistics, records and reports.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/progress_line.hpp"
#include "patterns/p2p/session.hpp"

namespace dlcnet {

// What the initiator measured for one size: per message, post and completion time (ns).
struct Measurement {
  uint64_t bytes = 0;
  std::vector<int64_t> post_ns;
  std::vector<int64_t> complete_ns;
  std::vector<uint8_t> signaled;  // 0: complete_ns is that of the completion retiring it
  void add(int64_t post, int64_t complete, bool was_signaled) {
    post_ns.push_back(post);
    complete_ns.push_back(complete);
    signaled.push_back(was_signaled ? 1 : 0);
  }
  void reserve(size_t n) {
    post_ns.reserve(n);
    complete_ns.reserve(n);
    signaled.reserve(n);
  }
};

// How long one run lasts: `count` messages, or until `until_ns` when non-zero; and where its
// progress goes (a terminal's progress line, or nowhere).
struct RunPlan {
  uint64_t count = 0;
  int64_t until_ns = 0;
  ProgressLine* progress = nullptr;
  // `i` messages done at `now`: whether the run is over (and its progress, when shown).
  bool done(uint64_t i, int64_t now) const {
    tick(i, now);
    return until_ns ? now >= until_ns : i >= count;
  }
  void tick(uint64_t i, int64_t now) const {
    if (progress != nullptr) progress->tick(i, now);
  }
};

class Pattern {
 public:
  virtual ~Pattern() = default;
  // Ping-pong latency is half the round trip (as perftest); one-sided read latency is the whole.
  virtual double latency_factor() const noexcept { return 0.5; }
  // Runs one size. The initiator fills `out` (when non-null: warm-up passes null); the
  // responder serves until the initiator's last message. Throws Error on failure.
  virtual void run(PeerSession& s, uint64_t size, const RunPlan& plan, Measurement* out) = 0;
};

// The registry: (kind, op) -> pattern. Adding a test = one file + one line in registry.cpp.
std::unique_ptr<Pattern> make_pattern(BenchKind kind, Op op);

std::unique_ptr<Pattern> make_pingpong_latency();  // send and write
std::unique_ptr<Pattern> make_read_latency();
std::unique_ptr<Pattern> make_stream_bandwidth();  // send, write and read

}  // namespace dlcnet
