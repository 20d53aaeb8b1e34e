// Per-node overheads: a worker's phases and wait, a server's synchronisation, update and search
// overheads, per training iteration, from the node's own clock.
#include <algorithm>
#include <climits>
#include <unordered_map>

#include "trace/trace_stats_internal.hpp"

namespace dlcnet::trace {
namespace {

double seconds(int64_t ns) {
  return static_cast<double>(ns) * 1e-9;
}

void tally(OpTallies& t, const Record& r) {
  OpTally& x = t[static_cast<size_t>(r.op)];
  ++x.messages;
  x.bytes += r.length;
}

int32_t max_iteration(const Node& node) {
  int32_t m = 0;
  for (const Record& r : node.records) m = std::max(m, r.iteration);
  return m;
}

struct Span {
  int64_t first = INT64_MAX;
  int64_t last = INT64_MIN;
  uint64_t count = 0;
  void add(int64_t t) {
    first = std::min(first, t);
    last = std::max(last, t);
    ++count;
  }
};

}  // namespace

void worker_overheads(const Node& node, NodeStats& out) {
  const int32_t n = max_iteration(node);
  std::vector<Span> push(static_cast<size_t>(n) + 1), pull(static_cast<size_t>(n) + 1);
  std::vector<OpTallies> ops(static_cast<size_t>(n) + 1);
  for (const Record& r : node.records) {
    if (!r.is_data() || r.iteration < 0) continue;
    const auto i = static_cast<size_t>(r.iteration);
    tally(ops[i], r);
    if (r.op == Op::kPushSendWorker) push[i].add(r.time_ns);
    if (r.op == Op::kPullRecvWorker) pull[i].add(r.time_ns);
  }
  std::vector<double> comp, p1, p2, p3, total, overlap, wait;
  for (int32_t it = 1; it <= n; ++it) {
    const auto i = static_cast<size_t>(it);
    WorkerIteration w;
    w.iteration = it;
    w.ops = ops[i];
    w.complete = push[i].count > 0 && pull[i].count == push[i].count && pull[i - 1].count > 0;
    if (w.complete) {
      w.phase1_s = seconds(push[i].first - pull[i - 1].last);
      w.phase2_s = seconds(push[i].last - push[i].first);
      w.phase3_s = seconds(pull[i].last - push[i].first);
      w.computation_s = w.phase1_s + w.phase2_s;
      w.total_s = w.phase1_s + w.phase3_s;
      w.overlap_ratio = w.total_s > 0 ? w.phase2_s / w.total_s : 0;
      w.wait_s = seconds(pull[i].last - pull[i].first);
      comp.push_back(w.computation_s);
      p1.push_back(w.phase1_s);
      p2.push_back(w.phase2_s);
      p3.push_back(w.phase3_s);
      total.push_back(w.total_s);
      overlap.push_back(w.overlap_ratio);
      wait.push_back(w.wait_s);
    }
    out.worker_iterations.push_back(w);
  }
  out.computation_s = summarize_latency(comp);
  out.phase1_s = summarize_latency(p1);
  out.phase2_s = summarize_latency(p2);
  out.phase3_s = summarize_latency(p3);
  out.total_s = summarize_latency(total);
  out.overlap_ratio = summarize_latency(overlap);
  out.wait_s = summarize_latency(wait);
}

void server_overheads(const Node& node, NodeStats& out) {
  const int32_t n = max_iteration(node);
  const auto iters = static_cast<size_t>(n) + 1;
  std::unordered_map<int32_t, size_t> slot_of;
  for (const Record& r : node.records) {
    if (r.is_data()) slot_of.emplace(r.key, slot_of.size());
  }
  const size_t keys = slot_of.size();
  // [iteration * keys + slot]: last push received and first acknowledgement sent of a key.
  std::vector<int64_t> last_recv(iters * keys, INT64_MIN), first_ack(iters * keys, INT64_MAX);
  std::vector<Span> recv(iters), ack(iters);
  std::vector<double> search_sum(iters, 0);
  std::vector<uint64_t> search_n(iters, 0);
  std::vector<OpTallies> ops(iters);
  for (uint32_t idx = 0; idx < node.records.size(); ++idx) {
    const Record& r = node.records[idx];
    if (!r.is_data() || r.iteration < 0) continue;
    const auto i = static_cast<size_t>(r.iteration);
    tally(ops[i], r);
    const size_t cell = i * keys + slot_of[r.key];
    if (r.op == Op::kPushRecvServer) {
      recv[i].add(r.time_ns);
      last_recv[cell] = std::max(last_recv[cell], r.time_ns);
    } else if (r.op == Op::kPushSendServer) {
      ack[i].add(r.time_ns);
      first_ack[cell] = std::min(first_ack[cell], r.time_ns);
    } else if (r.op == Op::kPullSendServer) {
      const auto deps = node.deps_of(idx);
      search_sum[i] +=
          deps.empty() ? seconds(r.dtime_ns) : seconds(r.time_ns - node.records[deps[0]].time_ns);
      ++search_n[i];
    }
  }
  std::vector<double> sync, update, search;
  for (int32_t it = 1; it <= n; ++it) {
    const auto i = static_cast<size_t>(it);
    ServerIteration s;
    s.iteration = it;
    s.ops = ops[i];
    s.complete = recv[i].count > 0 && ack[i].count == recv[i].count;
    if (recv[i].count > 0) s.sync_s = seconds(recv[i].last - recv[i].first);
    double sum = 0;
    for (size_t k = 0; k < keys; ++k) {
      const size_t cell = i * keys + k;
      if (last_recv[cell] == INT64_MIN || first_ack[cell] == INT64_MAX) continue;
      const double u = seconds(first_ack[cell] - last_recv[cell]);
      sum += u;
      s.update_max_s = std::max(s.update_max_s, u);
      ++s.update_keys;
      if (s.complete) update.push_back(u);
    }
    if (s.update_keys != 0) s.update_mean_s = sum / s.update_keys;
    if (search_n[i] != 0) s.search_mean_s = search_sum[i] / static_cast<double>(search_n[i]);
    if (s.complete) {
      sync.push_back(s.sync_s);
      if (search_n[i] != 0) search.push_back(s.search_mean_s);
    }
    out.server_iterations.push_back(s);
  }
  out.sync_s = summarize_latency(sync);
  out.update_s = summarize_latency(update);
  out.search_s = summarize_latency(search);
}

}  // namespace dlcnet::trace
