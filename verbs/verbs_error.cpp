#include "verbs/verbs_error.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstdio>

#include "core/error.hpp"

namespace dlcnet::verbs {
namespace {

std::string memlock_limit_text() {
  rlimit lim{};
  if (getrlimit(RLIMIT_MEMLOCK, &lim) != 0) return "unknown";
  if (lim.rlim_cur == RLIM_INFINITY) return "unlimited";
  const auto kib = static_cast<unsigned long long>(lim.rlim_cur) / 1024;
  return kib >= 1024 ? std::to_string(kib / 1024) + " MiB" : std::to_string(kib) + " KiB";
}

}  // namespace

std::string verbs_error_text(std::string_view device, std::string_view call, int err) {
  std::string text(device.empty() ? std::string_view("verbs") : device);
  text += ": ";
  text += call;
  text += ": ";
  text += errno_text(err);
  return text;
}

void throw_verbs_error(std::string_view device, std::string_view call, int err) {
  throw Error(verbs_error_text(device, call, err));
}

void throw_reg_mr_error(std::string_view device, std::string_view call, int err) {
  std::string text = verbs_error_text(device, call, err);
  if (err == ENOMEM || err == EPERM) {
    text += "; raise ulimit -l (locked-memory limit is " + memlock_limit_text() + ")";
  }
  throw Error(text);
}

void log_verbs_failure(std::string_view device, std::string_view call, int err) noexcept {
  try {
    std::fprintf(stderr, "dlcnet: %s\n", verbs_error_text(device, call, err).c_str());
  } catch (...) {
    std::fprintf(stderr, "dlcnet: %.*s failed (errno %d)\n", static_cast<int>(call.size()),
                 call.data(), err);
  }
}

int last_errno(int fallback) noexcept {
  return errno != 0 ? errno : fallback;
}

int returned_errno(int rc) noexcept {
  return rc > 0 ? rc : last_errno();
}

}  // namespace dlcnet::verbs
