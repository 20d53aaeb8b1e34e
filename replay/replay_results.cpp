#include "replay/replay_results.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "core/error.hpp"
#include "core/intervals.hpp"
#include "core/wire.hpp"

namespace dlcnet::replay {
namespace {

constexpr std::string_view kReportTag = "replay-report";
constexpr uint16_t kReportVersion = 2;

void put_f64(WireWriter& w, double v) {
  w.u64(std::bit_cast<uint64_t>(v));
}
double get_f64(WireReader& r, const char* field) {
  return std::bit_cast<double>(r.u64(field));
}

void put_doubles(WireWriter& w, const std::vector<double>& v) {
  w.u64(v.size());
  for (double x : v) put_f64(w, x);
}
std::vector<double> get_doubles(WireReader& r, const char* field) {
  const uint64_t n = r.u64(field);
  if (n > r.remaining() / 8) throw ProtocolError(std::string(field) + ": count beyond the data");
  std::vector<double> v(n);
  for (auto& x : v) x = get_f64(r, field);
  return v;
}

using Span = Interval<double>;  // ns on rank 0's clock

// RankReport's compute_s, comm_s and overlap_s from the entries' times and the flows received.
void time_split(RankReport& rep, const RankPlan& plan, const EngineResult& r,
                const ClockModel& mine) {
  std::vector<Span> compute, comm;
  for (size_t e = 0; e < plan.entries.size(); ++e) {
    const PlanEntry& pe = plan.entries[e];
    const EntryTimes& t = r.times[e];
    if (pe.compute && !plan.open_loop && pe.think_ns > 0 && t.complete_ns >= 0) {
      compute.emplace_back(mine.to_reference(t.complete_ns - pe.think_ns),
                           mine.to_reference(t.complete_ns));
    } else if (pe.replayable && pe.send && t.post_ns >= 0 && t.complete_ns >= 0) {
      comm.emplace_back(mine.to_reference(t.post_ns), mine.to_reference(t.complete_ns));
    }
  }
  // A message in flight before this rank's release (its sender started earlier) counts from
  // the release: the split is of this rank's run.
  for (const Flow& f : rep.flows) {
    comm.emplace_back(std::max(f.start_ns, rep.start_ns), f.start_ns + f.fct_ns);
  }
  const auto c = merged(std::move(compute));
  const auto m = merged(std::move(comm));
  rep.compute_s = covered(c) * 1e-9;
  rep.comm_s = covered(m) * 1e-9;
  rep.overlap_s = intersection(c, m) * 1e-9;
}

}  // namespace

std::vector<Bytes> encode_post_times(const RankPlan& plan, const EngineResult& r) {
  std::vector<Bytes> out(plan.sends_to.size());
  for (size_t p = 0; p < plan.sends_to.size(); ++p) {
    if (plan.sends_to[p].empty()) continue;
    WireWriter w;
    w.u64(plan.sends_to[p].size());
    for (uint32_t e : plan.sends_to[p]) w.i64(r.times[e].post_ns);
    out[p] = w.take();
  }
  return out;
}

RankReport make_rank_report(const RankPlan& plan, const EngineResult& r,
                            const std::vector<Bytes>& from_each,
                            std::span<const ClockModel> clocks) {
  RankReport rep;
  rep.rank = plan.rank;
  rep.node = plan.node;
  rep.entries = plan.entries.size();
  rep.sends = plan.sends;
  rep.receives = plan.receives;
  rep.unreplayable = plan.unreplayable;
  rep.split = plan.split_messages;
  rep.wrong = r.wrong;
  rep.busy = r.busy;
  rep.records_written = r.records_written;
  const ClockModel& mine = clocks[plan.rank];
  rep.start_ns = mine.to_reference(r.start_ns);
  rep.end_ns = mine.to_reference(r.end_ns);
  rep.sched_error_s = r.sched_error_s;
  rep.order_hold_s = r.order_hold_s;
  rep.event_ns.resize(plan.entries.size(), -1);
  for (size_t e = 0; e < plan.entries.size(); ++e) {
    if (!plan.entries[e].replayable) continue;
    rep.event_ns[e] = plan.entries[e].send ? r.times[e].post_ns : r.times[e].arrival_ns;
  }
  for (size_t p = 0; p < plan.recvs_from.size(); ++p) {
    const auto& list = plan.recvs_from[p];
    if (list.empty()) continue;
    WireReader rd(from_each[p], "post times from rank " + std::to_string(p));
    const uint64_t n = rd.u64("count");
    if (n != list.size()) {
      throw ProtocolError("rank " + std::to_string(p) + " reports " + std::to_string(n) +
                          " messages to rank " + std::to_string(plan.rank) + ", which expects " +
                          std::to_string(list.size()));
    }
    const ClockModel& theirs = clocks[p];
    const double bound = mine.uncertainty_ns + theirs.uncertainty_ns;
    for (uint32_t e : list) {
      const int64_t post = rd.i64("post_ns");
      const PlanEntry& pe = plan.entries[e];
      Flow f;
      f.src = static_cast<int32_t>(p);
      f.dst = plan.rank;
      f.key = pe.key;
      f.opnum = pe.msg_opnum;
      f.bytes = pe.bytes;
      f.start_ns = theirs.to_reference(post);
      f.fct_ns = mine.to_reference(r.times[e].arrival_ns) - f.start_ns;
      f.bound_ns = bound;
      rep.flows.push_back(f);
    }
    rd.expect_end();
  }
  time_split(rep, plan, r, mine);
  return rep;
}

Bytes encode_report(const RankReport& r) {
  WireWriter w;
  write_blob_tag(w, kReportTag, kReportVersion);
  w.u32(static_cast<uint32_t>(r.rank)).u16(r.node);
  for (uint64_t v : {r.entries, r.sends, r.receives, r.unreplayable, r.split, r.wrong, r.busy,
                     r.records_written}) {
    w.u64(v);
  }
  put_f64(w, r.start_ns);
  put_f64(w, r.end_ns);
  for (double v : {r.compute_s, r.comm_s, r.overlap_s}) put_f64(w, v);
  put_doubles(w, r.sched_error_s);
  put_doubles(w, r.order_hold_s);
  w.u64(r.event_ns.size());
  for (int64_t t : r.event_ns) w.i64(t);
  w.u64(r.flows.size());
  for (const Flow& f : r.flows) {
    w.u32(static_cast<uint32_t>(f.src)).u32(static_cast<uint32_t>(f.dst));
    w.u32(static_cast<uint32_t>(f.key)).u32(static_cast<uint32_t>(f.opnum)).u64(f.bytes);
    put_f64(w, f.start_ns);
    put_f64(w, f.fct_ns);
    put_f64(w, f.bound_ns);
  }
  return w.take();
}

RankReport decode_report(std::span<const uint8_t> data, int rank) {
  WireReader rd(data, "replay report of rank " + std::to_string(rank));
  check_blob_tag(rd, kReportTag, kReportVersion);
  RankReport r;
  r.rank = static_cast<int32_t>(rd.u32("rank"));
  r.node = rd.u16("node");
  for (uint64_t* v : {&r.entries, &r.sends, &r.receives, &r.unreplayable, &r.split, &r.wrong,
                      &r.busy, &r.records_written}) {
    *v = rd.u64("count");
  }
  r.start_ns = get_f64(rd, "start_ns");
  r.end_ns = get_f64(rd, "end_ns");
  r.compute_s = get_f64(rd, "compute_s");
  r.comm_s = get_f64(rd, "comm_s");
  r.overlap_s = get_f64(rd, "overlap_s");
  r.sched_error_s = get_doubles(rd, "sched_error_s");
  r.order_hold_s = get_doubles(rd, "order_hold_s");
  const uint64_t events = rd.u64("events");
  if (events > rd.remaining() / 8) throw ProtocolError("events: count beyond the data");
  r.event_ns.resize(events);
  for (auto& t : r.event_ns) t = rd.i64("event_ns");
  const uint64_t flows = rd.u64("flows");
  if (flows > rd.remaining() / 48) throw ProtocolError("flows: count beyond the data");
  r.flows.resize(flows);
  for (Flow& f : r.flows) {
    f.src = static_cast<int32_t>(rd.u32("src"));
    f.dst = static_cast<int32_t>(rd.u32("dst"));
    f.key = static_cast<int32_t>(rd.u32("key"));
    f.opnum = static_cast<int32_t>(rd.u32("opnum"));
    f.bytes = rd.u64("bytes");
    f.start_ns = get_f64(rd, "start_ns");
    f.fct_ns = get_f64(rd, "fct_ns");
    f.bound_ns = get_f64(rd, "bound_ns");
  }
  rd.expect_end();
  return r;
}

}  // namespace dlcnet::replay
