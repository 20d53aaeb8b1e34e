#include "patterns/fanin/fanin_times.hpp"

#include <string>

#include "core/wire.hpp"

namespace dlcnet::fanin {
namespace {

void put(WireWriter& w, const std::vector<int64_t>& v) {
  w.u32(static_cast<uint32_t>(v.size()));
  for (int64_t x : v) w.i64(x);
}
std::vector<int64_t> get(WireReader& r, const char* field) {
  std::vector<int64_t> v(r.u32(field));
  for (int64_t& x : v) x = r.i64(field);
  return v;
}

}  // namespace

Bytes encode(const std::vector<WorkerRound>& rounds) {
  WireWriter w;
  w.u32(static_cast<uint32_t>(rounds.size()));
  for (const WorkerRound& r : rounds) {
    w.u32(r.round).i64(r.go_seen_ns).i64(r.start_ns);
    put(w, r.post_ns);
    put(w, r.complete_ns);
    put(w, r.pull_arrival_ns);
  }
  return w.take();
}

std::vector<WorkerRound> decode_worker(const Bytes& b, int rank) {
  WireReader rd(b, "fan-in times of worker rank " + std::to_string(rank));
  std::vector<WorkerRound> out(rd.u32("rounds"));
  for (WorkerRound& r : out) {
    r.round = rd.u32("round");
    r.go_seen_ns = rd.i64("go seen");
    r.start_ns = rd.i64("start");
    r.post_ns = get(rd, "post times");
    r.complete_ns = get(rd, "completion times");
    r.pull_arrival_ns = get(rd, "pull arrival times");
  }
  rd.expect_end();
  return out;
}

Bytes encode(const BackgroundTimes& b) {
  WireWriter w;
  put(w, b.post_ns);
  return w.take();
}

BackgroundTimes decode_background(const Bytes& b, int rank) {
  WireReader rd(b, "fan-in times of background rank " + std::to_string(rank));
  BackgroundTimes t;
  t.post_ns = get(rd, "post times");
  rd.expect_end();
  return t;
}

}  // namespace dlcnet::fanin
