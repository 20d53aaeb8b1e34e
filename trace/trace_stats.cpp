#include "trace/trace_stats.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

#include "trace/trace_stats_internal.hpp"

namespace dlcnet::trace {
namespace {

// Nearest rank, as core/stats.hpp: the smallest sample with at least p of the samples <= it.
uint64_t nearest_rank(const std::vector<uint64_t>& sorted, double p) {
  const double n = static_cast<double>(sorted.size());
  auto rank = static_cast<size_t>(std::ceil(p * n - 1e-9));
  if (rank == 0) rank = 1;
  return sorted[std::min(rank, sorted.size()) - 1];
}

struct KeyAccumulator {
  KeyStats stats;
  std::vector<double> push_rtt, pull_rtt;
  bool seen_push = false, seen_pull = false;
};

void key_samples(const Node& node, std::map<int32_t, KeyAccumulator>& keys) {
  for (uint32_t i = 0; i < node.records.size(); ++i) {
    const Record& r = node.records[i];
    if (!r.is_data() || r.iteration < 1) continue;
    if (r.op != Op::kPushSendWorker && r.op != Op::kPushRecvWorker && r.op != Op::kPullRecvWorker) {
      continue;
    }
    KeyAccumulator& k = keys[r.key];
    k.stats.key = r.key;
    if (r.op == Op::kPushSendWorker) {
      ++k.stats.push_messages;
      k.stats.push_bytes_min =
          k.seen_push ? std::min<uint64_t>(k.stats.push_bytes_min, r.length) : r.length;
      k.stats.push_bytes_max = std::max<uint64_t>(k.stats.push_bytes_max, r.length);
      k.seen_push = true;
      continue;
    }
    // The round trip at the worker: from the request (the dependency) to its reply.
    const auto deps = node.deps_of(i);
    const double rtt = deps.empty() ? static_cast<double>(r.dtime_ns) * 1e-9
                                    : seconds_between(node.records[deps[0]].time_ns, r.time_ns);
    if (r.op == Op::kPushRecvWorker) {
      k.push_rtt.push_back(rtt);
    } else {
      k.pull_rtt.push_back(rtt);
      k.stats.pull_bytes_min =
          k.seen_pull ? std::min<uint64_t>(k.stats.pull_bytes_min, r.length) : r.length;
      k.stats.pull_bytes_max = std::max<uint64_t>(k.stats.pull_bytes_max, r.length);
      k.seen_pull = true;
    }
  }
}

}  // namespace

SizeDistribution size_distribution(std::vector<uint64_t> sizes) {
  SizeDistribution d;
  if (sizes.empty()) return d;
  std::sort(sizes.begin(), sizes.end());
  d.count = sizes.size();
  d.min = sizes.front();
  d.max = sizes.back();
  d.p50 = nearest_rank(sizes, 0.50);
  d.p90 = nearest_rank(sizes, 0.90);
  d.p99 = nearest_rank(sizes, 0.99);
  long double sum = 0;
  for (uint64_t s : sizes) sum += s;
  d.mean = static_cast<double>(sum / static_cast<long double>(sizes.size()));
  d.log2_buckets.assign(static_cast<size_t>(std::bit_width(d.max)) + 1, 0);
  for (uint64_t s : sizes) {
    ++d.log2_buckets[s == 0 ? 0 : static_cast<size_t>(std::bit_width(s)) - 1];
  }
  while (d.log2_buckets.size() > 1 && d.log2_buckets.back() == 0) d.log2_buckets.pop_back();
  return d;
}

JobStats compute_stats(const Job& job) {
  JobStats js;
  js.num_workers = job.num_workers;
  js.num_servers = job.num_servers;
  js.records = job.record_count();
  js.messages = job.messages.size();
  std::map<int32_t, KeyAccumulator> keys;
  std::vector<double> comp, overlap, wait, sync, update;
  for (const Node& node : job.nodes) {
    if (!node.present) continue;
    NodeStats ns;
    ns.rank = node.rank;
    ns.role = node.role;
    ns.name = node.name();
    ns.file = node.file;
    ns.records = node.records.size();
    std::vector<uint64_t> sizes;
    sizes.reserve(node.records.size());
    for (const Record& r : node.records) {
      OpTally& t = ns.ops[static_cast<size_t>(r.op)];
      ++t.messages;
      t.bytes += r.length;
      sizes.push_back(r.length);
      js.iterations = std::max(js.iterations, r.iteration);
    }
    ns.sizes = size_distribution(std::move(sizes));
    for (size_t o = 0; o < kNumOps; ++o) {
      js.ops[o].messages += ns.ops[o].messages;
      js.ops[o].bytes += ns.ops[o].bytes;
    }
    if (node.role == Role::kWorker) {
      worker_overheads(node, ns);
      key_samples(node, keys);
      for (const WorkerIteration& w : ns.worker_iterations) {
        if (!w.complete) continue;
        comp.push_back(w.computation_s);
        overlap.push_back(w.overlap_ratio);
        wait.push_back(w.wait_s);
      }
    } else if (node.role == Role::kServer) {
      server_overheads(node, ns);
      for (const ServerIteration& s : ns.server_iterations) {
        if (!s.complete) continue;
        sync.push_back(s.sync_s);
        if (s.update_keys != 0) update.push_back(s.update_mean_s);
      }
    }
    js.nodes.push_back(std::move(ns));
  }
  std::vector<uint64_t> sizes;
  sizes.reserve(job.messages.size());
  for (const Message& m : job.messages) sizes.push_back(job.message_record(m).length);
  js.sizes = size_distribution(std::move(sizes));
  std::vector<double> push_all, pull_all;
  for (auto& [key, k] : keys) {
    k.stats.push_rtt_s = summarize_latency(k.push_rtt);
    k.stats.pull_rtt_s = summarize_latency(k.pull_rtt);
    push_all.insert(push_all.end(), k.push_rtt.begin(), k.push_rtt.end());
    pull_all.insert(pull_all.end(), k.pull_rtt.begin(), k.pull_rtt.end());
    js.keys.push_back(k.stats);
  }
  js.computation_s = summarize_latency(comp);
  js.overlap_ratio = summarize_latency(overlap);
  js.wait_s = summarize_latency(wait);
  js.sync_s = summarize_latency(sync);
  js.update_s = summarize_latency(update);
  js.push_rtt_s = summarize_latency(push_all);
  js.pull_rtt_s = summarize_latency(pull_all);
  return js;
}

}  // namespace dlcnet::trace
