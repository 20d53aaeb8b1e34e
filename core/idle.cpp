#include "core/idle.hpp"

#include <time.h>

#include <algorithm>

namespace dlcnet {
namespace {

constexpr int64_t kQuietBeforeNapNs = 2'000'000;
constexpr int64_t kNapMinNs = 50'000;

}  // namespace

void nap_when_quiet(int64_t quiet_ns, int64_t max_nap_ns) noexcept {
  if (quiet_ns <= kQuietBeforeNapNs) return;
  // The first message after the quiet waits at most one nap.
  const int64_t nap =
      std::clamp<int64_t>(quiet_ns / 16, kNapMinNs, std::max(kNapMinNs, max_nap_ns));
  timespec ts{0, static_cast<long>(nap)};
  nanosleep(&ts, nullptr);
}

const char* to_string(Idle i) noexcept {
  switch (i) {
    case Idle::spin:
      return "spin";
    case Idle::yield:
      return "yield";
    case Idle::sleep:
      return "sleep";
    case Idle::block:
      return "block";
  }
  return "?";
}

}  // namespace dlcnet
