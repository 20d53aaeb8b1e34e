// The replay datapath of one rank: walks its plan, posts each send when its dependencies have
// completed in the replay plus its think time (or at its trace time), keeps receives posted
// ahead per peer, and stamps every message. One thread, busy-polling; every buffer is sized in
// prepare(), so the loop allocates nothing.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/bootstrap.hpp"
#include "core/progress_line.hpp"
#include "core/record.hpp"
#include "core/transport.hpp"
#include "replay/replay_plan.hpp"

namespace dlcnet::replay {

struct EngineConfig {
  Transfer transfer = Transfer::send;
  // Write mode: send the notification only once the write completed instead of right behind
  // it; needed where the transport does not order a send behind a write
  // (!Transport::orders_write_before_send(): UCX; verbs RC orders them).
  bool notify_after_write_completion = true;
  uint32_t recv_ahead = 64;  // receives (parts) posted ahead per peer
  std::chrono::milliseconds progress_timeout{30000};
  Idle idle = Idle::spin;
  int64_t fault_after = -1;    // test hook: raise fault_signal after that many completions
  int fault_signal = SIGKILL;  // (dies) or SIGSTOP (frozen, connections open)
  RecordWriter* records = nullptr;
  std::function<std::string(int)> rank_name;  // "rank 2 (server0)", for errors
  bool show_progress = false;                 // this rank's messages on stderr (ProgressLine)
};

// Per entry, on this rank's clock; -1 where it does not apply.
struct EntryTimes {
  int64_t planned_ns = -1;   // sends: dependencies completed + think time (or trace time)
  int64_t post_ns = -1;      // sends: first part posted; receives: first receive posted
  int64_t complete_ns = -1;  // sends: last part completed; receives: arrival, or later when
                             // the record's own dependencies completed after it; compute
                             // entries: their dependencies' completion plus the think time
  int64_t arrival_ns = -1;   // receives: last part arrived
};

struct EngineResult {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::vector<EntryTimes> times;      // parallel to the plan's entries
  std::vector<double> sched_error_s;  // per send: post - max(planned, channel predecessor post)
  std::vector<double> order_hold_s;   // per send held by its channel's order: the hold
  uint64_t wrong = 0;                 // completions whose size was not the message's
  uint64_t busy = 0;                  // posts refused for a full send queue, retried
  uint64_t records_written = 0;
};

// How far run() got, also after it threw: records (entries) completed of those planned, and
// records written to the records file.
struct EngineProgress {
  uint64_t done = 0;
  uint64_t planned = 0;
  uint64_t records_written = 0;
};

class Engine {
 public:
  Engine(const RankPlan& plan, Transport& t, Bootstrap& boot, RegionId region, EngineConfig cfg);
  // Sizes everything and posts the first receives. Call before the barrier that starts the run,
  // so that no message of the run finds its receive missing.
  void prepare();
  // Replays until every entry has completed. Throws Error (naming the peer) on a transport
  // failure, a dead rank (Bootstrap::check_peers) or no progress within the timeout; records
  // completed so far are written and flushed before it throws.
  EngineResult run(int64_t start_ns);
  EngineProgress progress() const noexcept {
    return {done_, plan_.entries.size(), res_.records_written};
  }

 private:
  void loop();
  void drain_work();
  void on_completion(const Completion& c, int64_t now);
  void on_deps_done(uint32_t e);
  void complete(uint32_t e, int64_t t);
  void post_channel(int peer);
  void post_receives(int peer);
  void post_notifies(int peer);
  void retry_pending();
  void mark_pending(int peer) noexcept;
  void write_records(size_t max);
  void housekeeping(int64_t now);
  [[noreturn]] void fail(const std::string& what);
  // What this rank awaits (messages from, sends to whom) and those ranks.
  struct Awaited {
    std::string what;
    std::vector<int> peers;
  };
  Awaited awaited() const;
  [[noreturn]] void no_progress();
  uint64_t part_length(uint32_t e, uint32_t part) const noexcept;

  const RankPlan& plan_;
  Transport& t_;
  Bootstrap& boot_;
  RegionId region_;
  EngineConfig cfg_;
  EngineResult res_;

  // Per entry.
  std::vector<uint32_t> deps_left_;
  std::vector<int64_t> dep_max_;
  std::vector<uint32_t> parts_posted_;
  std::vector<uint32_t> parts_done_;
  std::vector<uint8_t> flags_;
  // Per peer rank.
  std::vector<uint32_t> next_send_, next_notify_, next_recv_, recvs_outstanding_;
  std::vector<uint32_t> arrived_, sends_done_;
  std::vector<int64_t> last_post_;
  std::vector<uint8_t> pending_flag_;
  std::vector<int> pending_;
  // Timers (min-heap of planned time), completion work list, records to write.
  std::vector<std::pair<int64_t, uint32_t>> heap_;
  std::vector<std::pair<uint32_t, int64_t>> work_;
  std::vector<uint32_t> to_write_;
  size_t written_ = 0;
  uint64_t done_ = 0;
  uint64_t inflight_ = 0;  // posted sends, writes and notifications not yet completed
  uint64_t completions_ = 0;
  uint64_t notifies_left_ = 0;  // write mode: notifications not yet posted
  int64_t last_progress_ = 0, last_flush_ = 0, last_check_ = 0, last_activity_ = 0;
  ProgressLine* progress_ = nullptr;  // run()'s, while it runs
  ProgressLine progress_line_;
  uint32_t idle_spins_ = 0;
};

}  // namespace dlcnet::replay
