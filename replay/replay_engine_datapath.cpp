// The engine's datapath: posting sends, writes, notifications and receives in channel order,
// and turning completions into record completions. No allocation, no exceptions except the
// one that ends the run.
#include <csignal>

#include <algorithm>
#include <functional>

#include "core/clock.hpp"
#include "replay/replay_engine.hpp"
#include "replay/replay_engine_internal.hpp"

namespace dlcnet::replay {

uint64_t Engine::part_length(uint32_t e, uint32_t part) const noexcept {
  const PlanEntry& pe = plan_.entries[e];
  if (pe.parts <= 1) return pe.bytes;
  return part + 1 < pe.parts ? plan_.part_bytes
                             : pe.bytes - plan_.part_bytes * (static_cast<uint64_t>(pe.parts) - 1);
}

void Engine::mark_pending(int peer) noexcept {
  if (pending_flag_[peer]) return;
  pending_flag_[peer] = 1;
  pending_.push_back(peer);  // capacity reserved for every peer: no allocation
}

void Engine::retry_pending() {
  // Swap-free: peers marked again while retrying are appended and handled next time round.
  const size_t n = pending_.size();
  for (size_t i = 0; i < n; ++i) {
    const int p = pending_[i];
    pending_flag_[p] = 0;
  }
  for (size_t i = 0; i < n; ++i) {
    const int p = pending_[i];
    post_receives(p);
    post_channel(p);
    post_notifies(p);
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
}

void Engine::post_receives(int peer) {
  const auto& list = plan_.recvs_from[peer];
  const bool write = cfg_.transfer == Transfer::write;
  while (recvs_outstanding_[peer] < cfg_.recv_ahead && next_recv_[peer] < list.size()) {
    const uint32_t e = list[next_recv_[peer]];
    const uint32_t parts = write ? 1 : plan_.entries[e].parts;
    const uint64_t len = write ? 0 : part_length(e, parts_posted_[e]);
    const int64_t t = now_ns();
    const Status s = t_.post_recv(peer, region_, 0, len, make_wr(e, kWrRecv, parts_posted_[e]));
    if (s == Status::busy) {
      mark_pending(peer);
      return;
    }
    if (s == Status::failed) fail("receive from " + cfg_.rank_name(peer) + ": " + t_.last_error());
    if (parts_posted_[e]++ == 0) res_.times[e].post_ns = t;
    ++recvs_outstanding_[peer];
    if (parts_posted_[e] == parts) ++next_recv_[peer];
  }
}

void Engine::post_channel(int peer) {
  const auto& list = plan_.sends_to[peer];
  const bool write = cfg_.transfer == Transfer::write;
  while (next_send_[peer] < list.size()) {
    const uint32_t e = list[next_send_[peer]];
    if ((flags_[e] & kDue) == 0) return;  // the channel's next message is not due yet
    const PlanEntry& pe = plan_.entries[e];
    while (parts_posted_[e] < pe.parts) {
      const uint64_t len = part_length(e, parts_posted_[e]);
      const int64_t t = now_ns();
      const uint64_t wr = make_wr(e, kWrData, parts_posted_[e]);
      const Status s = write ? t_.post_write(peer, region_, 0, len, 0, wr, true)
                             : t_.post_send(peer, region_, 0, len, wr, true);
      if (s == Status::busy) {
        ++res_.busy;
        mark_pending(peer);
        return;
      }
      if (s == Status::failed) {
        fail(std::string(write ? "write" : "send") + " to " + cfg_.rank_name(peer) + ": " +
             t_.last_error());
      }
      if (parts_posted_[e]++ == 0) res_.times[e].post_ns = t;
      ++inflight_;
    }
    // Fidelity: the post against the later of its plan and its channel predecessor's post.
    const EntryTimes& times = res_.times[e];
    const int64_t prev = last_post_[peer];
    const int64_t release = std::max(times.planned_ns, prev);
    if (prev > times.planned_ns) {
      res_.order_hold_s.push_back(static_cast<double>(prev - times.planned_ns) * 1e-9);
    }
    res_.sched_error_s.push_back(static_cast<double>(times.post_ns - release) * 1e-9);
    last_post_[peer] = times.post_ns;
    ++next_send_[peer];
    if (write && !cfg_.notify_after_write_completion) post_notifies(peer);
  }
}

void Engine::post_notifies(int peer) {
  if (cfg_.transfer != Transfer::write) return;
  const auto& list = plan_.sends_to[peer];
  // In channel order, so the receiver's k-th notification receive names the k-th message.
  while (next_notify_[peer] < next_send_[peer]) {
    const uint32_t e = list[next_notify_[peer]];
    if (cfg_.notify_after_write_completion && (flags_[e] & kWriteDone) == 0) return;
    const Status s = t_.post_send(peer, region_, 0, 0, make_wr(e, kWrNotify), true);
    if (s == Status::busy) {
      ++res_.busy;
      mark_pending(peer);
      return;
    }
    if (s == Status::failed) {
      fail("notification to " + cfg_.rank_name(peer) + ": " + t_.last_error());
    }
    ++inflight_;
    ++next_notify_[peer];
    --notifies_left_;
  }
}

void Engine::on_completion(const Completion& c, int64_t now) {
  if (!c.ok) {
    fail(std::string(to_string(c.op)) + " with " + cfg_.rank_name(c.peer) +
         " failed: " + (c.error ? c.error : "unknown error") + " (" + t_.last_error() + ")");
  }
  if (cfg_.fault_after >= 0 && static_cast<int64_t>(++completions_) == cfg_.fault_after) {
    // Test hook: die as a killed process does, without cleaning up, or freeze (SIGSTOP) with
    // every connection open.
    std::raise(cfg_.fault_signal);
  }
  const uint32_t e = wr_entry(c.wr_id);
  const PlanEntry& pe = plan_.entries[e];
  const bool write = cfg_.transfer == Transfer::write;
  switch (wr_kind(c.wr_id)) {
    case kWrNotify:
      --inflight_;
      return;
    case kWrData: {
      --inflight_;
      if (c.bytes != part_length(e, wr_part(c.wr_id))) ++res_.wrong;
      if (++parts_done_[e] < pe.parts) return;
      res_.times[e].complete_ns = now;
      ++sends_done_[pe.peer];
      if (write) {
        flags_[e] |= kWriteDone;
        post_notifies(pe.peer);
      }
      complete(e, now);
      return;
    }
    case kWrRecv: {
      --recvs_outstanding_[pe.peer];
      if (c.bytes != (write ? 0 : part_length(e, wr_part(c.wr_id)))) ++res_.wrong;
      if (++parts_done_[e] == (write ? 1 : pe.parts)) {
        res_.times[e].arrival_ns = now;
        flags_[e] |= kArrived;
        ++arrived_[pe.peer];
        if (deps_left_[e] == 0) complete(e, std::max(now, dep_max_[e]));
      }
      post_receives(pe.peer);
      return;
    }
  }
}

void Engine::on_deps_done(uint32_t e) {
  const PlanEntry& pe = plan_.entries[e];
  const int64_t t = dep_max_[e];
  if (!pe.replayable) {
    // A compute entry completes its think time later (0 unless dag), without waiting for it.
    work_.emplace_back(e, pe.compute && !plan_.open_loop ? t + pe.think_ns : t);
  } else if (pe.send) {
    const int64_t planned = plan_.open_loop ? res_.start_ns + pe.timed_ns : t + pe.think_ns;
    res_.times[e].planned_ns = planned;
    heap_.emplace_back(planned, e);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  } else if ((flags_[e] & kArrived) != 0) {
    work_.emplace_back(e, std::max(res_.times[e].arrival_ns, t));
  }
}

void Engine::complete(uint32_t e, int64_t t) {
  work_.emplace_back(e, t);
  drain_work();
}

// Completions ripple: a record whose dependencies are all done may complete at once (a
// receive that already arrived, a record nobody replays). A work list, not recursion: chains
// can be as long as the job.
void Engine::drain_work() {
  const bool timed = plan_.open_loop;
  while (!work_.empty()) {
    const auto [x, tx] = work_.back();
    work_.pop_back();
    flags_[x] |= kDone;
    ++done_;
    const PlanEntry& pe = plan_.entries[x];
    if (pe.replayable) {
      if (!pe.send) res_.times[x].complete_ns = tx;
      to_write_.push_back(x);
    } else if (pe.compute) {
      res_.times[x].complete_ns = tx;
    }
    if (timed) continue;  // open loop: dependencies do not gate anything
    for (uint32_t d : plan_.dependents_of(x)) {
      dep_max_[d] = std::max(dep_max_[d], tx);
      if (--deps_left_[d] == 0) on_deps_done(d);
    }
  }
}

}  // namespace dlcnet::replay
