// What one `dlc-bench ring` run does, as plain data every rank must agree on: the collective,
// the sizes swept, iterations, the data check and how bytes move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/transport.hpp"

namespace dlcnet::ring {

struct RingSpec {
  std::string collective = "allreduce";  // a name of the table (collectives.hpp)
  int root = 0;                          // a rooted collective's root (CollectiveDef::rooted)
  std::vector<uint64_t> sizes;           // bytes per size, ascending (nccl-tests' -b/-e/-f or -s)
  uint32_t iterations = 20;              // measured, per size
  uint32_t warmup = 5;                   // unmeasured, per size, before the measured ones
  bool check = true;           // -c: check every iteration's result (inputs change per iteration)
  Op op = Op::send;            // send, or write + an 8-byte notification
  uint32_t timeout_s = 30;     // any one wait
  uint64_t segment_bytes = 0;  // cut every message into segments of this (0: whole)
  int corrupt_rank = -1;       // test only: this rank perturbs one element of its input
  bool in_place = false;       // --in-place: the root's input is its output (broadcast)

  // Equal on every rank that runs the same thing (corrupt_rank included: the tests give it
  // to every rank).
  uint64_t fingerprint() const noexcept;
};

// nccl-tests' sweep: MIN, then times FACTOR (or plus INCREMENT when it is not 0) while <= MAX.
// Throws Error for MIN > MAX, MIN 0, FACTOR <= 1 without an increment.
std::vector<uint64_t> sweep(uint64_t min, uint64_t max, double factor, uint64_t increment);

}  // namespace dlcnet::ring
