// The fuzz targets' way to hand bytes to readers that take a path: one file in /dev/shm per
// process, rewritten for each input (the readers open it by name, as they open a user's file).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace dlcnet::fuzz {

// The folder, removed with its files when the process exits.
struct InputDir {
  std::string path = "/dev/shm/dlcnet-fuzz-" + std::to_string(::getpid());
  InputDir() { ::mkdir(path.c_str(), 0700); }
  ~InputDir() {
    for (const char* n : {"trace_record.txt", "trace_sch_record.txt", "job.csv"}) {
      ::unlink((path + "/" + n).c_str());
    }
    ::rmdir(path.c_str());
  }
};

inline std::string input_file(const uint8_t* data, size_t size, const char* name) {
  static const InputDir dir;
  const std::string path = dir.path + "/" + name;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) __builtin_trap();
  size_t at = 0;
  while (at < size) {
    const ssize_t n = ::write(fd, data + at, size - at);
    if (n <= 0) __builtin_trap();
    at += static_cast<size_t>(n);
  }
  ::close(fd);
  return path;
}

}  // namespace dlcnet::fuzz
