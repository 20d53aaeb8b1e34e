// The three roles of a fan-in run on the transport: the server (rank 0) names each round's
// start and receives the bursts (and answers them with --pull), a worker bursts when told, a
// background rank streams toward the server from the first incast round to the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/idle.hpp"
#include "core/transport.hpp"
#include "patterns/fanin/fanin_memory.hpp"
#include "patterns/fanin/fanin_spec.hpp"
#include "patterns/fanin/fanin_times.hpp"

namespace dlcnet::fanin {

struct RoleContext {
  RoleContext(const FaninSpec& s, int r, int w, Transport& tr, Bootstrap& b)
      : spec(s), rank(r), world(w), t(tr), boot(b) {}
  const FaninSpec& spec;
  int rank = 0;
  int world = 0;
  Transport& t;
  Bootstrap& boot;
  RegionId ctl = 0, data = 0;
  uint8_t* ctl_mem = nullptr;
  uint8_t* data_mem = nullptr;
  Idle idle = Idle::spin;
  // How long one wait lasts: the wait limit of --timeout (core/stop_budget.hpp).
  std::chrono::milliseconds timeout{30000};
  int64_t min_lead_ns = 2'000'000;  // instant release: how far ahead the server names a start
  // Rank 0's instant (its clock, and its kernel's CLOCK_MONOTONIC) on this rank's clock.
  std::function<int64_t(int64_t ref_ns, int64_t monotonic_ns)> to_local;
  // Called after each round this rank completes, with its times (the pattern writes its
  // records then, so a rank killed later keeps them); unset: nothing.
  std::function<void(size_t index, const ServerRound& r)> server_round;
  std::function<void(const WorkerRound& r)> worker_round;
};

// Before the job's release: what a worker or background rank must have posted first.
void prepare_sender(RoleContext& c);

// Each role's times in `out`; on a failure (thrown on) `out` holds the rounds completed before.
void run_server(RoleContext& c, const std::vector<Round>& rounds, ServerTimes& out);
void run_worker(RoleContext& c, const std::vector<Round>& rounds, std::vector<WorkerRound>& out);
BackgroundTimes run_background(RoleContext& c);

}  // namespace dlcnet::fanin
