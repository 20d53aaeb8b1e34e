#include "core/progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace dlcnet {
namespace {

constexpr int64_t kFirstAfterNs = 1'000'000'000;
constexpr int64_t kEveryNs = 500'000'000;

// 12345678 -> "12 345 678", as the rest of the console output.
std::string grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ' ';
    out += digits[i];
  }
  return out;
}

std::string rate_text(double per_s) {
  char b[32];
  if (per_s >= 1e6)
    std::snprintf(b, sizeof b, "%.3g M/s", per_s / 1e6);
  else if (per_s >= 1e3)
    std::snprintf(b, sizeof b, "%.3g k/s", per_s / 1e3);
  else
    std::snprintf(b, sizeof b, "%.3g /s", per_s);
  return b;
}

std::string seconds_text(double s) {
  char b[32];
  if (s >= 120)
    std::snprintf(b, sizeof b, "%.0f min", s / 60);
  else
    std::snprintf(b, sizeof b, "%.0f s", s);
  return b;
}

}  // namespace

bool ProgressLine::wanted(std::FILE* f) noexcept {
  if (const char* v = std::getenv("DLCNET_PROGRESS"); v != nullptr && *v != '\0')
    return std::strcmp(v, "0") != 0;
  return f != nullptr && ::isatty(::fileno(f)) == 1;
}

ProgressLine::ProgressLine(std::FILE* f, std::string label, uint64_t total, int64_t start_ns,
                           int64_t until_ns, bool enabled)
    : f_(f),
      label_(std::move(label)),
      total_(total),
      start_ns_(start_ns),
      until_ns_(until_ns),
      next_ns_(enabled && f != nullptr ? start_ns + kFirstAfterNs : INT64_MAX) {}

std::string ProgressLine::text(uint64_t done, int64_t now) const {
  const double elapsed = static_cast<double>(std::max<int64_t>(1, now - start_ns_)) * 1e-9;
  const double rate = static_cast<double>(done) / elapsed;
  std::string s = label_ + ": " + grouped(done);
  if (total_ > 0) {
    char pct[32];
    std::snprintf(pct, sizeof pct, " (%.1f %%)",
                  100.0 * static_cast<double>(done) / static_cast<double>(total_));
    s += " of " + grouped(total_) + " messages" + pct;
  } else {
    s += " messages";
  }
  s += ", " + rate_text(rate);
  if (until_ns_ > 0) {
    s +=
        ", " +
        seconds_text(std::ceil(static_cast<double>(std::max<int64_t>(0, until_ns_ - now)) * 1e-9)) +
        " left";
  } else if (total_ > 0 && done > 0 && done <= total_) {
    s += ", " + seconds_text(std::ceil(static_cast<double>(total_ - done) / rate)) + " left";
  }
  return s;
}

void ProgressLine::show(uint64_t done, int64_t now) {
  next_ns_ = now + kEveryNs;
  const std::string s = text(done, now);
  // Pad over what the previous line left on screen.
  const size_t pad = shown_ > s.size() ? shown_ - s.size() : 0;
  std::fprintf(f_, "\r%s%*s", s.c_str(), static_cast<int>(pad), "");
  std::fflush(f_);
  shown_ = s.size();
}

void ProgressLine::finish() noexcept {
  next_ns_ = INT64_MAX;
  if (shown_ == 0) return;
  std::fprintf(f_, "\r%*s\r", static_cast<int>(shown_), "");
  std::fflush(f_);
  shown_ = 0;
}

}  // namespace dlcnet
