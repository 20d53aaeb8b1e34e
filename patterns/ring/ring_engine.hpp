// Runs a collective's plan (collective.hpp) over one transport, iteration after iteration,
// back to back as nccl-tests does: each step posts its message out (a send, or a write into
// the peer's buffer then an 8-byte notification), waits for the message in and reduces it.
// The receives of the next iteration are posted at the start of this one, so a neighbour that
// is ahead never finds none posted (which costs Soft-RoCE an RNR retry of 0.6 ms or more).
// Inputs are filled before an iteration's entry time and results checked after its end time.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

#include "core/bootstrap.hpp"
#include "core/idle.hpp"
#include "core/transport.hpp"
#include "patterns/rank_wire.hpp"
#include "patterns/ring/collective.hpp"
#include "patterns/ring/ring_memory.hpp"
#include "patterns/ring/ring_times.hpp"

namespace dlcnet::ring {

struct SizeSetup {
  Layout layout;
  Plan plan;  // this rank's, with remotes (plan_for)
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
  // receives are posted during the last iteration of this one), or null.
  SizeTimes run_size(const SizeSetup& cur, const SizeSetup* next);

 private:
  void post_recvs(const SizeSetup& s, uint64_t run);
  void one_run(const SizeSetup& cur, const SizeSetup* then, uint32_t t, bool fill, RunTimes& times);
  void send_step(const Step& s, size_t i, unsigned parity, RunTimes& times);
  void on_completion(const Completion& c, int64_t now);
  float* buffer(Buf b, unsigned parity) const noexcept;

  EngineContext c_;
  RankWire wire_;
  uint64_t run_ = 0;                             // iterations run so far, every size
  std::array<std::vector<int64_t>, 2> arrival_;  // per parity, per step
  RunTimes* cur_ = nullptr;
  std::vector<uint8_t> write_done_;
  uint64_t outstanding_ = 0;  // sends, writes and notifications of this iteration not complete
};

}  // namespace dlcnet::ring
