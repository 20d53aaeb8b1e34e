#include "core/error.hpp"

#include <cerrno>
#include <cstring>

namespace dlcnet {

std::string errno_text(int err) {
  char buf[256];
  // GNU strerror_r returns a pointer that may or may not be buf.
  const char* text = strerror_r(err, buf, sizeof buf);
  return std::string(text) + " (errno " + std::to_string(err) + ")";
}

void throw_errno(const std::string& what) {
  throw Error(what + ": " + errno_text(errno));
}

}  // namespace dlcnet
