// A run's progress on stderr while it lasts, for a person watching a terminal: one line,
// rewritten in place ("\r") at most every half second once the run has lasted a second, and
// erased when it ends. On anything else (a log file, a pipe, CI) it writes nothing, unless
// DLCNET_PROGRESS=1 asks for it.
//   dlc-replay rank 0: 12 345 of 50 000 messages (24.7 %), 1.23 k/s, 31 s left
//   dlc-bench 65536 B: 123 456 messages, 45.6 k/s, 3 s left
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace dlcnet {

class ProgressLine {
 public:
  // Whether `f` wants progress lines: a terminal, or DLCNET_PROGRESS=1 (0 turns them off).
  static bool wanted(std::FILE* f) noexcept;

  ProgressLine() = default;  // shows nothing
  // `total` messages (0: not known), or a run that ends at `until_ns` (0: not known); times on
  // now_ns()'s clock. Disabled unless `enabled`.
  ProgressLine(std::FILE* f, std::string label, uint64_t total, int64_t start_ns, int64_t until_ns,
               bool enabled);
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // `done` messages so far, at `now`: cheap unless a line is due.
  void tick(uint64_t done, int64_t now) {
    if (now >= next_ns_) show(done, now);
  }
  // Erases the line if one was shown.
  void finish() noexcept;
  // The line for `done` messages at `now`, as show() prints it (tests).
  std::string text(uint64_t done, int64_t now) const;

 private:
  void show(uint64_t done, int64_t now);

  std::FILE* f_ = nullptr;
  std::string label_;
  uint64_t total_ = 0;
  int64_t start_ns_ = 0;
  int64_t until_ns_ = 0;
  int64_t next_ns_ = INT64_MAX;  // never, when disabled
  size_t shown_ = 0;             // length of the line on screen
};

}  // namespace dlcnet
