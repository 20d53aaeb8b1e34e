#include "fabric/qdisc_sampler.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

#include <chrono>
#include <cmath>
#include <exception>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "fabric/netns.hpp"
#include "fabric/qdisc_query.hpp"

namespace dlcnet::fabric {
namespace {

constexpr auto kStartTimeout = std::chrono::seconds(5);
// How far behind its schedule the sampler may fall and still catch up (sampling without a
// pause until it is on time again); further behind, the schedule restarts from now.
constexpr int64_t kCatchUpPeriods = 100;

// A sampling thread wakes 10 000 times a second: under load, a normal thread's wake-ups come
// late. SCHED_FIFO (the lowest real-time priority) when allowed, as root; otherwise it stays
// a normal thread. Also: sleeps of 100 us must not be stretched by the default 50 us timer
// slack.
void prefer_prompt_wakeups() {
  sched_param p{};
  p.sched_priority = 1;
  pthread_setschedparam(pthread_self(), SCHED_FIFO, &p);
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

QdiscSample stamped_read(QdiscQuery& q) {
  const int64_t t0 = now_ns();
  QdiscSample s = q.read().counters;
  s.t_ns = t0 + (now_ns() - t0) / 2;
  return s;
}

}  // namespace

QdiscSampler::QdiscSampler(std::string dev, std::string netns, double rate_hz)
    : dev_(std::move(dev)), netns_(std::move(netns)), period_ns_(0) {
  if (dev_.empty()) throw Error("qdisc sampler: no device given (" + netns_label(netns_) + ")");
  if (!(rate_hz >= 1 && rate_hz <= 1e6))
    throw Error("qdisc sampler: rate " + std::to_string(rate_hz) + " Hz is outside 1 Hz .. 1 MHz");
  period_ns_ = std::llround(1e9 / rate_hz);
}

QdiscSampler::~QdiscSampler() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void QdiscSampler::set_state(State s, std::string error) {
  {
    std::lock_guard lock(mu_);
    state_ = s;
    error_ = std::move(error);
  }
  cv_.notify_all();
}

void QdiscSampler::start() {
  if (thread_.joinable())
    throw Error("qdisc sampler: device '" + dev_ + "' in " + netns_label(netns_) +
                " is already sampled");
  stop_ = false;
  samples_.clear();
  state_ = State::starting;
  thread_ = std::thread([this] { run(); });
  std::unique_lock lock(mu_);
  const bool ready = cv_.wait_for(lock, kStartTimeout, [&] { return state_ != State::starting; });
  const State state = state_;
  const std::string error = error_;
  lock.unlock();
  if (ready && state == State::running) return;
  stop_ = true;
  thread_.join();
  state_ = State::idle;
  if (!ready)
    throw TimeoutError("qdisc sampler: device '" + dev_ + "' in " + netns_label(netns_) +
                       ": not sampling after 5 s");
  throw Error(error);
}

void QdiscSampler::run() {
  try {
    try {
      enter_netns(netns_);
    } catch (const Error& e) {
      throw Error("qdisc sampler: device '" + dev_ + "': " + e.what());
    }
    prefer_prompt_wakeups();
    QdiscQuery query(dev_, netns_);
    set_state(State::running);
    int64_t next = now_ns();
    while (!stop_.load(std::memory_order_relaxed)) {
      samples_.push_back(stamped_read(query));
      next += period_ns_;
      const int64_t now = now_ns();
      if (next < now - kCatchUpPeriods * period_ns_) next = now;
      if (next > now) std::this_thread::sleep_for(std::chrono::nanoseconds(next - now));
    }
  } catch (const std::exception& e) {
    set_state(State::failed, e.what());
  }
}

std::vector<QdiscSample> QdiscSampler::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  std::string error;
  {
    std::lock_guard lock(mu_);
    if (state_ == State::failed) error = error_;
    state_ = State::idle;
  }
  if (!error.empty()) throw Error(error);
  std::vector<QdiscSample> out(samples_.begin(), samples_.end());
  samples_.clear();
  return out;
}

}  // namespace dlcnet::fabric
