// Statistics of a loaded job: messages and bytes by operation, message sizes, and the
// SketchDLC paper's overheads (section 4.2 and 5.3; trace-and-output-formats section 1), all
// from each node's own clock. Plain structs in seconds and bytes; printers convert.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "trace/trace_model.hpp"

namespace dlcnet::trace {

struct OpTally {
  uint64_t messages = 0;
  uint64_t bytes = 0;
};
using OpTallies = std::array<OpTally, kNumOps>;

// Nearest-rank percentiles (core/stats.hpp) of message lengths, and a histogram with one
// bucket per power of two: bucket b counts sizes in [2^b, 2^(b+1)) (bucket 0 also holds 0).
struct SizeDistribution {
  uint64_t count = 0;
  uint64_t min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
  double mean = 0;
  std::vector<uint64_t> log2_buckets;
};
SizeDistribution size_distribution(std::vector<uint64_t> sizes);

// One training iteration at a worker. Times in seconds.
struct WorkerIteration {
  int32_t iteration = 0;
  OpTallies ops{};
  // Every push of the iteration has its pull reply, and the previous iteration ended: the
  // phases below are meaningful. Incomplete iterations (a cut file) still count messages.
  bool complete = false;
  double phase1_s = 0;       // last pull reply of i-1 -> first push of i (computation only)
  double phase2_s = 0;       // first -> last push of i (computation and communication)
  double phase3_s = 0;       // first push -> last pull reply of i (communication)
  double computation_s = 0;  // phase 1 + phase 2
  double total_s = 0;        // phase 1 + phase 3
  double overlap_ratio = 0;  // phase 2 / total
  double wait_s = 0;         // first -> last pull reply of i
};

// One training iteration at a server. Times in seconds.
struct ServerIteration {
  int32_t iteration = 0;
  OpTallies ops{};
  bool complete = false;     // pushes received and acknowledged
  double sync_s = 0;         // first -> last Push_Recv_Server of the iteration
  uint32_t update_keys = 0;  // keys with both ends of an update in the iteration
  double update_mean_s = 0;  // per key: last Push_Recv_Server -> first Push_Send_Server
  double update_max_s = 0;
  double search_mean_s = 0;  // Pull_Recv_Server -> its Pull_Send_Server
};

struct NodeStats {
  uint16_t rank = 0;
  Role role = Role::kWorker;
  std::string name;
  std::string file;
  uint64_t records = 0;
  OpTallies ops{};  // every record, set-up included
  SizeDistribution sizes;
  std::vector<WorkerIteration> worker_iterations;  // workers: training iterations 1..
  std::vector<ServerIteration> server_iterations;  // servers: training iterations 1..
  // Over the complete iterations (count = iterations used).
  LatencySummary computation_s, phase1_s, phase2_s, phase3_s, total_s, overlap_ratio, wait_s;
  LatencySummary sync_s, update_s, search_s;  // servers; update over keys and iterations
};

struct KeyStats {
  int32_t key = 0;
  uint64_t push_messages = 0;  // Push_Send_Worker records of training iterations
  uint64_t push_bytes_min = 0, push_bytes_max = 0;  // lengths of the pushes (payload + meta)
  uint64_t pull_bytes_min = 0, pull_bytes_max = 0;  // lengths of the pull replies
  LatencySummary push_rtt_s;  // Push_Send_Worker -> its Push_Recv_Worker, at the worker
  LatencySummary pull_rtt_s;  // Pull_Send_Worker -> its Pull_Recv_Worker
};

struct JobStats {
  uint16_t num_workers = 0;
  uint16_t num_servers = 0;
  uint64_t records = 0;
  uint64_t messages = 0;
  int32_t iterations = 0;  // highest training iteration seen
  OpTallies ops{};
  SizeDistribution sizes;        // over messages (each counted once, from either side)
  std::vector<NodeStats> nodes;  // present nodes, by rank
  std::vector<KeyStats> keys;    // by key
  // Job-wide over every worker's (server's) complete iterations.
  LatencySummary computation_s, overlap_ratio, wait_s, sync_s, update_s, push_rtt_s, pull_rtt_s;
};

JobStats compute_stats(const Job& job);

}  // namespace dlcnet::trace
