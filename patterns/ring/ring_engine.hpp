// Runs a collective's plan (collective.hpp) over one transport, iteration after iteration,
// back to back as nccl-tests does. Each step's messages are cut into segments (segments.hpp):
// the segments of step 0 leave at once; every later segment leaves as soon as the same
// segment of the step before has arrived and been reduced, so the ring is a pipeline. A
// message is a send, or a write into the peer's buffer followed by an 8-byte notification.
// The receives of the next iteration are posted at the start of this one, so a neighbour that
// is ahead never finds none posted (which costs Soft-RoCE an RNR retry of 0.6 ms or more).
// Inputs are filled before an iteration's entry time and results checked after its end time.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <vector>

#include "core/bootstrap.hpp"
#include "core/idle.hpp"
#include "core/transport.hpp"
#include "patterns/rank_wire.hpp"
#include "patterns/ring/collective.hpp"
#include "patterns/ring/ring_memory.hpp"
#include "patterns/ring/ring_times.hpp"
#include "patterns/ring/segments.hpp"

namespace dlcnet::ring {

struct SizeSetup {
  Layout layout;
  Plan plan;      // this rank's, with remotes (plan_for)
  Segments segs;  // its cut (cut(plan, spec.segment_bytes))
};

struct EngineContext {
  Transport& t;
  Bootstrap& boot;
  const RingSpec& spec;
  const CollectiveDef& def;
  int rank = 0;
  uint8_t* mem = nullptr;  // the region of `map`
  RegionId region = 0;
  RegionMap map;
  Idle idle = Idle::spin;
};

class RingEngine {
 public:
  explicit RingEngine(const EngineContext& c);
  // Posts the receives of the first iteration of `first`: before the job's release.
  void prime(const SizeSetup& first);
  // Runs the warm-up and measured iterations of `cur`; `next` is the size after it (its first
  // receives are posted during the last iteration of this one), or null. Each measured
  // iteration is in `out` as it completes (after a failure: those before it).
  void run_size(const SizeSetup& cur, const SizeSetup* next, SizeTimes& out);

 private:
  struct Pending {
    int peer;
    uint32_t slot;
  };
  void post_recvs(const SizeSetup& s, uint64_t run);
  void one_run(const SizeSetup& cur, const SizeSetup* then, uint32_t t, bool fill, RunTimes& times);
  void send_segment(const SizeSetup& cur, size_t step, uint32_t j, RunTimes& times);
  // Messages of a step's piece of `count` elements: its segments; with --op write at least
  // one, an empty piece's being its notification alone (segments.hpp's cut gives it a slot).
  uint32_t messages(uint64_t count, uint64_t elems) const noexcept;
  // Posts the notification of `slot` to `peer`; its post time.
  int64_t notify(int peer, uint32_t slot);
  void flush_notifies();
  // `peers`: the ranks waited for, named by a stall.
  void wait(const std::function<bool()>& done, const std::function<std::string()>& what,
            std::vector<int> peers);
  void on_completion(const Completion& c, int64_t now);
  float* buffer(Buf b, unsigned parity) const noexcept;

  EngineContext c_;
  RankWire wire_;
  uint64_t run_ = 0;                             // iterations run so far, every size
  std::array<std::vector<int64_t>, 2> arrival_;  // per parity, per slot
  RunTimes* cur_ = nullptr;
  std::deque<Pending> to_notify_;  // UCX: writes complete, their notifications not yet sent
  std::vector<int> write_peer_;    // per slot of this iteration: the write's peer
  uint64_t outstanding_ = 0;       // sends, writes and notifications of this iteration not complete
};

}  // namespace dlcnet::ring
