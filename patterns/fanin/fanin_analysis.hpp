// What a fan-in run means, computed at rank 0 from every rank's times on rank 0's clock: the
// bottleneck's effective rate and base latency from the solo rounds, and per incast iteration
// the burst completion time against its limit, fairness, slowdown and the queue implied by
// the latencies. Pure functions of their inputs (tests feed them synthetic times).
#pragma once

#include <cstdint>
#include <vector>

#include "core/clock_model.hpp"
#include "core/stats.hpp"
#include "flows/flow.hpp"
#include "patterns/fanin/fanin_spec.hpp"
#include "patterns/fanin/fanin_times.hpp"

namespace dlcnet::fanin {

// One message of a round on rank 0's clock.
struct Message {
  int worker = 0;  // rank
  size_t index = 0;
  uint64_t bytes = 0;
  double post_ns = 0, arrival_ns = 0, bound_ns = 0;
  double latency_ns() const noexcept { return arrival_ns - post_ns; }
};

struct Solo {
  double rate_Bps = 0;  // effective rate of the bottleneck (median over the solo rounds)
  double base_ns = 0;   // latency that no size explains (median)
  double bct_ns = 0;    // median solo burst completion time
  std::vector<double> min_latency_ns;  // per message index: fastest in any solo round
  uint32_t rounds = 0;
};

struct Iteration {
  RoundKind kind = RoundKind::incast;
  uint32_t iteration = 0;
  int workers = 0;
  uint64_t bytes = 0;        // all bursts of the round
  double first_post_ns = 0;  // rank 0's clock
  double last_arrival_ns = 0;
  double bct_ns = 0, bound_ns = 0;
  double limit_ns = 0;                     // base + bytes / rate
  double skew_ns = 0;                      // spread of the workers' first posts
  double late_ns = 0;                      // instant: the latest first post after the named start
  double goodput_Bps = 0;                  // bytes / BCT
  double jain = 0;                         // Jain's index over the workers' goodputs
  std::vector<double> worker_goodput_Bps;  // by worker index
  LatencySummary latency;                  // seconds
  LatencySummary slowdown;                 // latency / solo latency of the same message
  // Latency-derived, at the effective rate: the queue the burst met (the smallest queueing
  // delay among the workers' first messages) and the largest queueing delay of any message.
  // Queueing delay = one-way latency - the solo minimum of the same message: it counts every
  // byte ahead of the message anywhere on the path (the senders' socket buffers too), so it
  // exceeds a sampled qdisc backlog where senders hold data back (TCP's window).
  double queue_start_bytes = 0;
  double queue_peak_bytes = 0;
  double pull_ns = 0;  // --pull: first reply post to last reply arrival
  // The real queue where one was sampled (--qdisc), else negative: backlog at the first post,
  // the largest backlog until the last arrival, and the drops in between.
  double qdisc_start_bytes = -1, qdisc_peak_bytes = -1;
  int64_t qdisc_drops = -1;
  std::vector<Message> messages;
};

struct Analysis {
  Solo solo;
  std::vector<Iteration> iterations;  // warm-up and incast rounds, in order
  std::vector<Flow> flows;            // every message (bursts, replies, background)
  LatencySummary background_latency;  // seconds
  uint64_t background_messages = 0;
  double background_Bps = 0;
};

double jain_index(const std::vector<double>& x) noexcept;

// workers[w - 1]: worker rank w's rounds; background[b]: background rank W + 1 + b's times;
// clocks: every rank's model (rank 0 first).
Analysis analyse(const FaninSpec& spec, const std::vector<Round>& rounds, const ServerTimes& server,
                 const std::vector<std::vector<WorkerRound>>& workers,
                 const std::vector<BackgroundTimes>& background,
                 const std::vector<ClockModel>& clocks);

}  // namespace dlcnet::fanin
