#include "apps/dlc_ns3/job_sim.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "apps/dlc_ns3/star_session.hpp"
#include "core/error.hpp"

namespace dlcnet::ns3p {
namespace {

constexpr double kDrainS = 600.0;  // the most a message may take after its post

// The closed loop's bookkeeping: who waits for whom, and what is left.
class JobLoop {
 public:
  JobLoop(const StarNetwork& net, std::span<const model::Message> messages)
      : net_(net), msgs_(messages) {
    const size_t n = msgs_.size();
    times_.start_s.assign(n, -1);
    times_.arrival_s.assign(n, -1);
    times_.acked_s.assign(n, -1);
    waiting_.assign(n, 0);
    ready_s_.assign(n, 0);
    dependents_.resize(n);
    follower_.assign(n, model::kNoMessage);
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t a : msgs_[i].after) {
        if (a >= n) {
          throw Error("message " + std::to_string(i) + " waits for position " + std::to_string(a) +
                      ": the job has " + std::to_string(n) + " messages");
        }
        dependents_[a].push_back(i);
      }
      waiting_[i] = static_cast<uint32_t>(msgs_[i].after.size());
      const uint32_t f = msgs_[i].follows;
      if (f == model::kNoMessage) continue;
      if (f >= n || f == i || follower_[f] != model::kNoMessage) {
        throw Error("message " + std::to_string(i) + " follows position " + std::to_string(f) +
                    ": not another message of the job, or one that another message follows");
      }
      follower_[f] = i;
      ++waiting_[i];
    }
    left_ = 2 * n;  // every message arrives and is acknowledged
  }

  JobTimes run() {
    StarSession star(net_, {.acked = [this](size_t i) { acked(i); },
                            .arrived = [this](size_t i) { arrived(i); }});
    star_ = &star;
    star.sample_queue(times_.queue);
    std::vector<uint32_t> ready;  // waiting for nothing: then the followers they free
    for (uint32_t i = 0; i < msgs_.size(); ++i) {
      if (waiting_[i] == 0) ready.push_back(i);
    }
    for (uint32_t i : ready) release(i, msgs_[i].start_s);
    // Until every message is complete, or nothing moved for kDrainS after the last post
    // (posts during a run move the horizon on).
    for (size_t posted = SIZE_MAX; left_ > 0 && posted != posts_;) {
      posted = posts_;
      star.run(last_post_ + kDrainS);
    }
    star_ = nullptr;
    if (left_ > 0) fail();
    return std::move(times_);
  }

 private:
  // Posts message i at `at_s` (its own time), or after the message it follows if that was later,
  // then each follower whose predecessor's post was all it still waited for.
  void release(uint32_t i, double at_s) {
    for (;;) {
      const uint32_t f = msgs_[i].follows;
      if (f != model::kNoMessage) at_s = std::max(at_s, times_.start_s[f]);
      post(i, at_s);
      i = follower_[i];
      if (i == model::kNoMessage || --waiting_[i] != 0) return;
      at_s = msgs_[i].after.empty() ? msgs_[i].start_s : ready_s_[i] + msgs_[i].think_s;
    }
  }

  void post(uint32_t i, double at_s) {
    times_.start_s[i] = at_s;
    ++posts_;
    last_post_ = std::max(last_post_, at_s);
    const model::Message& m = msgs_[i];
    if (m.bytes > 0) {
      star_->write_at(at_s, i, m.src, m.dst, m.bytes);
      return;
    }
    star_->call_at(at_s + net_.base_latency_s, [this, i] {
      acked(i);
      arrived(i);
    });
  }

  void arrived(size_t i) {
    const double now = star_->now_s();
    times_.arrival_s[i] = now;
    for (uint32_t d : dependents_[i]) {
      ready_s_[d] = std::max(ready_s_[d], now);
      if (--waiting_[d] == 0) release(d, now + msgs_[d].think_s);
    }
    done();
  }

  void acked(size_t i) {
    times_.acked_s[i] = star_->now_s();
    done();
  }

  void done() {
    if (--left_ == 0) star_->stop();
  }

  // Posted messages not complete by the horizon, else messages never posted: they wait for
  // each other.
  [[noreturn]] void fail() const {
    size_t unposted = 0, first = msgs_.size();
    for (size_t i = 0; i < msgs_.size(); ++i) {
      if (times_.start_s[i] < 0) {
        ++unposted;
      } else if (times_.arrival_s[i] < 0 || times_.acked_s[i] < 0) {
        first = std::min(first, i);
      }
    }
    if (first < msgs_.size()) {
      throw Error("ns-3: message " + std::to_string(first) + " of " + std::to_string(msgs_.size()) +
                  " not complete " + std::to_string(kDrainS) + " s after the last post (" +
                  std::to_string(unposted) + " waiting for it or others never posted)");
    }
    throw Error("ns-3: " + std::to_string(unposted) + " of " + std::to_string(msgs_.size()) +
                " messages never posted: the messages they wait for wait for them");
  }

  const StarNetwork& net_;
  std::span<const model::Message> msgs_;
  JobTimes times_;
  std::vector<uint32_t> waiting_;
  std::vector<std::vector<uint32_t>> dependents_;
  std::vector<uint32_t> follower_;  // per message: the one that follows it (kNoMessage: none)
  std::vector<double> ready_s_;     // per message: the latest arrival it waited for so far
  StarSession* star_ = nullptr;
  size_t left_ = 0;
  size_t posts_ = 0;
  double last_post_ = 0;
};

}  // namespace

JobTimes simulate_job(const StarNetwork& net, std::span<const model::Message> messages) {
  return JobLoop(net, messages).run();
}

}  // namespace dlcnet::ns3p
