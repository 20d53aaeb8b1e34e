#include "verbs/ack_timeout.hpp"

#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "verbs/qp_setup.hpp"

namespace dlcnet::verbs {

uint8_t ack_timeout() {
  const char* v = std::getenv("DLCNET_VERBS_ACK_TIMEOUT");
  if (v == nullptr || *v == '\0') return kAckTimeout;
  char* end = nullptr;
  const unsigned long n = std::strtoul(v, &end, 10);
  if (*end != '\0' || n < 1 || n > 31) {
    throw Error(std::string("DLCNET_VERBS_ACK_TIMEOUT must be a whole number in 1..31 (4.096 us "
                            "* 2^N), got '") +
                v + "'");
  }
  return static_cast<uint8_t>(n);
}

}  // namespace dlcnet::verbs
