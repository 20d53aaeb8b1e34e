#include "verbs/rc_retry.hpp"

#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "verbs/qp_setup.hpp"

namespace dlcnet::verbs {
namespace {

// The variable's whole number in [lo, hi], `fallback` when unset or empty.
uint8_t from_env(const char* name, uint8_t fallback, unsigned long lo, unsigned long hi,
                 const char* meaning) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const unsigned long n = std::strtoul(v, &end, 10);
  if (*end != '\0' || *v == '-' || n < lo || n > hi) {
    throw Error(std::string(name) + " must be a whole number in " + std::to_string(lo) + ".." +
                std::to_string(hi) + " (" + meaning + "), got '" + v + "'");
  }
  return static_cast<uint8_t>(n);
}

}  // namespace

uint8_t ack_timeout() {
  return from_env("DLCNET_VERBS_ACK_TIMEOUT", kAckTimeout, 1, 31, "4.096 us * 2^N");
}

uint8_t retry_count() {
  return from_env("DLCNET_VERBS_RETRY_COUNT", kRetryCount, 0, 7,
                  "retransmissions of a request; rxe: 7 = for ever");
}

}  // namespace dlcnet::verbs
