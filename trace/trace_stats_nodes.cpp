// Per-node overheads: a worker's phases and wait, a server's synchronisation, update and search
// overheads, per training iteration, from the node's own clock.
//
// Memory is bounded by the records, never by the numbers in them: tables are indexed by the
// iterations present in the node's records (a single record of iteration 2^31 - 1 costs one
// row, not two billion), and the server's per-(iteration, key) cells are only those that occur.
#include <algorithm>
#include <climits>
#include <map>
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

// The iterations (0 and up) of a node's data records, sorted; slot() is an iteration's row.
class IterationIndex {
 public:
  explicit IterationIndex(const Node& node) {
    for (const Record& r : node.records) {
      if (r.is_data() && r.iteration >= 0) present_.push_back(r.iteration);
    }
    std::sort(present_.begin(), present_.end());
    present_.erase(std::unique(present_.begin(), present_.end()), present_.end());
  }
  size_t size() const noexcept { return present_.size(); }
  int32_t iteration(size_t slot) const noexcept { return present_[slot]; }
  // The row of `it`, or kAbsent.
  static constexpr size_t kAbsent = SIZE_MAX;
  size_t slot(int32_t it) const noexcept {
    const auto p = std::lower_bound(present_.begin(), present_.end(), it);
    return p != present_.end() && *p == it ? static_cast<size_t>(p - present_.begin()) : kAbsent;
  }

 private:
  std::vector<int32_t> present_;
};

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
  const IterationIndex index(node);
  const size_t rows = index.size();
  std::vector<Span> push(rows), pull(rows);
  std::vector<OpTallies> ops(rows);
  for (const Record& r : node.records) {
    if (!r.is_data() || r.iteration < 0) continue;
    const size_t i = index.slot(r.iteration);
    tally(ops[i], r);
    if (r.op == Op::kPushSendWorker) push[i].add(r.time_ns);
    if (r.op == Op::kPullRecvWorker) pull[i].add(r.time_ns);
  }
  std::vector<double> comp, p1, p2, p3, total, overlap, wait;
  for (size_t i = 0; i < rows; ++i) {
    const int32_t it = index.iteration(i);
    if (it < 1) continue;
    const size_t before = index.slot(it - 1);
    WorkerIteration w;
    w.iteration = it;
    w.ops = ops[i];
    w.complete = push[i].count > 0 && pull[i].count == push[i].count &&
                 before != IterationIndex::kAbsent && pull[before].count > 0;
    if (w.complete) {
      w.phase1_s = seconds_between(pull[before].last, push[i].first);
      w.phase2_s = seconds_between(push[i].first, push[i].last);
      w.phase3_s = seconds_between(push[i].first, pull[i].last);
      w.computation_s = w.phase1_s + w.phase2_s;
      w.total_s = w.phase1_s + w.phase3_s;
      w.overlap_ratio = w.total_s > 0 ? w.phase2_s / w.total_s : 0;
      w.wait_s = seconds_between(pull[i].first, pull[i].last);
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
  const IterationIndex index(node);
  const size_t iters = index.size();
  std::unordered_map<int32_t, size_t> slot_of;
  for (const Record& r : node.records) {
    if (r.is_data()) slot_of.emplace(r.key, slot_of.size());
  }
  // (iteration row, key slot) -> last push received and first acknowledgement sent of a key;
  // only the pairs that occur, in the order the rows and slots go.
  struct Cell {
    int64_t last_recv = INT64_MIN;
    int64_t first_ack = INT64_MAX;
  };
  std::map<std::pair<size_t, size_t>, Cell> cells;
  std::vector<Span> recv(iters), ack(iters);
  std::vector<double> search_sum(iters, 0);
  std::vector<uint64_t> search_n(iters, 0);
  std::vector<OpTallies> ops(iters);
  for (uint32_t idx = 0; idx < node.records.size(); ++idx) {
    const Record& r = node.records[idx];
    if (!r.is_data() || r.iteration < 0) continue;
    const size_t i = index.slot(r.iteration);
    tally(ops[i], r);
    if (r.op == Op::kPushRecvServer) {
      recv[i].add(r.time_ns);
      Cell& c = cells[{i, slot_of[r.key]}];
      c.last_recv = std::max(c.last_recv, r.time_ns);
    } else if (r.op == Op::kPushSendServer) {
      ack[i].add(r.time_ns);
      Cell& c = cells[{i, slot_of[r.key]}];
      c.first_ack = std::min(c.first_ack, r.time_ns);
    } else if (r.op == Op::kPullSendServer) {
      const auto deps = node.deps_of(idx);
      search_sum[i] += deps.empty() ? seconds(r.dtime_ns)
                                    : seconds_between(node.records[deps[0]].time_ns, r.time_ns);
      ++search_n[i];
    }
  }
  std::vector<double> sync, update, search;
  auto cell = cells.begin();
  for (size_t i = 0; i < iters; ++i) {
    const int32_t it = index.iteration(i);
    if (it < 1) {
      while (cell != cells.end() && cell->first.first == i) ++cell;
      continue;
    }
    ServerIteration s;
    s.iteration = it;
    s.ops = ops[i];
    s.complete = recv[i].count > 0 && ack[i].count == recv[i].count;
    if (recv[i].count > 0) s.sync_s = seconds_between(recv[i].first, recv[i].last);
    double sum = 0;
    for (; cell != cells.end() && cell->first.first == i; ++cell) {
      const Cell& c = cell->second;
      if (c.last_recv == INT64_MIN || c.first_ack == INT64_MAX) continue;
      const double u = seconds_between(c.last_recv, c.first_ack);
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
