// A scope around a library call that can block with no timeout of its own (UCX's worker
// creation retries its memory pools for ever when it cannot register them): when the scope has
// not ended within its limit, the process says what it was doing and exits with status 1,
// instead of hanging past the run's --timeout. Nothing has been measured yet in such a scope.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace dlcnet {

class StallGuard {
 public:
  StallGuard(std::string what, std::chrono::milliseconds limit);
  ~StallGuard();
  StallGuard(const StallGuard&) = delete;
  StallGuard& operator=(const StallGuard&) = delete;

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread watcher_;
};

}  // namespace dlcnet
