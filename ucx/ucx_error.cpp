#include "ucx/ucx_error.hpp"

#include <cstdio>

#include "core/error.hpp"

namespace dlcnet::ucx {

void fail(ucs_status_t status, const char* call, const std::string& arg) {
  std::string msg = std::string("ucx: ") + call + "(" + arg + "): " + ucs_status_string(status);
  if (status == UCS_ERR_TIMED_OUT) throw TimeoutError(msg);
  throw Error(msg);
}

std::string hex(const void* p) {
  char buf[2 + 2 * sizeof(void*) + 1];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace dlcnet::ucx
