#include "verbs/verbs_error.hpp"

#include <cerrno>
#include <cstdio>

#include "core/error.hpp"
#include "core/memlock.hpp"

namespace dlcnet::verbs {

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
    text += memlock_unbounded()
                ? "; the locked-memory limit does not hold this process back (unlimited, or "
                  "CAP_IPC_LOCK): the host has no more memory to pin"
                : "; " + memlock_fix_text();
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
