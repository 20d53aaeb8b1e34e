// One line on stderr in one write(2): several ranks share a terminal or a log file, and
// iostreams would let their lines interleave mid-line.
#pragma once

#include <unistd.h>

#include <string>

namespace dlcnet {

inline void log_line(std::string line) noexcept {
  line += '\n';
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace dlcnet
