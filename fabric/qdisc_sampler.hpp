// Samples the root qdisc of one device, in any network namespace, from a thread of its own.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fabric/qdisc_sample.hpp"

namespace dlcnet::fabric {

class QdiscSampler {
 public:
  // `netns`: a name of `ip netns list`, or empty for the caller's namespace. `rate_hz`: the
  // sampling rate aimed at (1 Hz .. 1 MHz); summarize() tells the rate achieved.
  QdiscSampler(std::string dev, std::string netns /*empty: current*/, double rate_hz = 10000);
  ~QdiscSampler();  // stops a running sampler (its samples are dropped)
  QdiscSampler(const QdiscSampler&) = delete;
  QdiscSampler& operator=(const QdiscSampler&) = delete;

  // Starts the thread, which enters the namespace, opens its netlink socket and reads once
  // before start() returns. Throws Error naming the device and namespace when either does not
  // exist (or the device has no qdisc), TimeoutError when the thread is not ready in 5 s.
  void start();

  // Stops and joins the thread (always), and returns the samples in time order. Throws Error
  // when sampling failed after start() (e.g. the device went away).
  std::vector<QdiscSample> stop();

 private:
  enum class State { idle, starting, running, failed };
  void run();
  void set_state(State s, std::string error = {});

  std::string dev_, netns_;
  int64_t period_ns_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  State state_ = State::idle;
  std::string error_;
  std::deque<QdiscSample> samples_;  // the thread's alone until it is joined
};

}  // namespace dlcnet::fabric
