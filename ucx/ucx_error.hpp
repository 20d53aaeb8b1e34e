// The one place where UCX status codes become dlcnet errors.
#pragma once

#include <string>

#include <ucs/type/status.h>

namespace dlcnet::ucx {

// Throws Error("ucx: <call>(<arg>): <ucs_status_string>"); TimeoutError for UCS_ERR_TIMED_OUT.
[[noreturn]] void fail(ucs_status_t status, const char* call, const std::string& arg = {});

// Throws through fail() unless `status` is UCS_OK.
inline void check(ucs_status_t status, const char* call, const std::string& arg = {}) {
  if (status != UCS_OK) fail(status, call, arg);
}

// "0x7f..." for messages naming an address argument.
std::string hex(const void* p);

}  // namespace dlcnet::ucx
