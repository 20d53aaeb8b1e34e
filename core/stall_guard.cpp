#include "core/stall_guard.hpp"

#include <unistd.h>

#include <cstdio>

namespace dlcnet {

StallGuard::StallGuard(std::string what, std::chrono::milliseconds limit) {
  watcher_ = std::thread([this, what = std::move(what), limit] {
    std::unique_lock lk(m_);
    if (cv_.wait_for(lk, limit, [this] { return done_; })) return;
    std::fprintf(stderr,
                 "dlcnet: error: %s has not returned after %.1f s (stuck inside the library; "
                 "its own messages above say why); exiting\n",
                 what.c_str(), static_cast<double>(limit.count()) / 1000.0);
    std::fflush(nullptr);
    _exit(1);
  });
}

StallGuard::~StallGuard() {
  {
    std::lock_guard lk(m_);
    done_ = true;
  }
  cv_.notify_one();
  watcher_.join();
}

}  // namespace dlcnet
