// Internal to dlc-trace synth: the generator's state, shared by trace_synth.cpp (the traffic)
// and trace_synth_assemble.cpp (ordering, scheduler exchanges, entry points).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "trace/trace_synth.hpp"

namespace dlcnet::trace::synth {

// splitmix64: tiny, seedable, and the same numbers on every platform (std distributions are
// not), so a seed names one job everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() noexcept {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double factor(double jitter) noexcept { return 1.0 + jitter * (2.0 * uniform() - 1.0); }

 private:
  uint64_t s_;
};

struct Slice {
  uint16_t server = 0;  // rank
  uint64_t bytes = 0;
};

struct Ref {  // a record by generation index, with its time
  uint32_t idx = kNone;
  int64_t t = 0;
};

class Generator {
 public:
  explicit Generator(const SynthConfig& c) : c_(c), rng_(c.seed) {
    job_ = make_job_skeleton(c.workers, c.servers);
    const auto K = c.model.params.size();
    slices_.resize(K);
    for (size_t k = 0; k < K; ++k) {
      const uint64_t bytes = c.model.params[k].bytes;
      if (c.split_above != 0 && bytes > c.split_above && c.servers > 1) {
        for (uint16_t s = 0; s < c.servers; ++s) {
          const uint64_t part = bytes / c.servers + (s < bytes % c.servers ? 1 : 0);
          slices_[k].push_back({job_.server_rank(s), part});
        }
      } else {
        slices_[k].push_back({job_.server_rank(static_cast<uint16_t>(k % c.servers)), bytes});
      }
    }
    for (Node& n : job_.nodes) {
      n.present = n.role != Role::kScheduler;
      n.hostname = "synth-" + n.name();
    }
  }

  Job run();
  // A command from worker 0 to a server and the server's reply; returns when it is back.
  int64_t command(int64_t t, uint16_t server);

 private:
  uint32_t meta() const { return c_.model.meta_bytes; }
  int64_t jittered(double seconds) {
    return std::max<int64_t>(0, std::llround(seconds * 1e6 * rng_.factor(c_.jitter)));
  }
  int64_t latency(uint64_t bytes) {
    const double s =
        c_.latency_s * rng_.factor(c_.jitter) + static_cast<double>(bytes) / c_.bandwidth_Bps;
    return std::max<int64_t>(1, std::llround(s * 1e6));
  }
  int opnum_offset(uint16_t node) const { return node == 0 ? 0 : 2; }

  Ref add(uint16_t node, int64_t t, Op op, uint16_t peer, int32_t key, int32_t it, uint64_t length,
          std::initializer_list<Ref> deps, int64_t dtime, bool init = false) {
    Node& n = job_.nodes[node];
    Record r;
    r.time_ns = t;  // microseconds until assemble()
    r.dtime_ns = dtime * 1000;
    r.length = static_cast<uint32_t>(length);
    r.op = op;
    r.peer = peer;
    r.set_flag(Record::kSendFlag, op_is_data(op) ? op_sends(op) : true);
    r.set_flag(Record::kInitFlag, init);
    if (op_is_data(op)) {
      r.key = key;
      r.iteration = it;
      r.opnum = opnum_of(it, op_phase(op), opnum_offset(node));
      r.set_dep_type(deps.size() == 0 ? DepType::kIndependent : op_dep_type(op));
    }
    r.dep_begin = static_cast<uint32_t>(n.deps.size());
    for (const Ref& d : deps) n.deps.push_back(d.idx);
    n.records.push_back(r);
    return {static_cast<uint32_t>(n.records.size() - 1), t};
  }
  void message(uint16_t from, Ref s, uint16_t to, Ref r) {
    msgs_.push_back(Message{s.idx, r.idx, from, to});
  }
  void initialise();
  void iterate(int32_t it);
  void scheduler_exchanges();
  void assemble();

  const SynthConfig& c_;
  Rng rng_;
  Job job_;
  std::vector<std::vector<Slice>> slices_;
  std::vector<Message> msgs_;  // by generation index until assemble()
  // [worker][key][slice]: the worker's last pull reply of each key slice.
  std::vector<std::vector<std::vector<Ref>>> last_pull_;
  std::vector<std::vector<std::vector<Ref>>> last_answer_;  // [key][slice][worker]
  std::vector<int64_t> ready_;                              // [worker]: end of its last pull
};

}  // namespace dlcnet::trace::synth
