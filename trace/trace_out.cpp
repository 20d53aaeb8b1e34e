#include "trace/trace_out.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "core/error.hpp"

namespace dlcnet::trace {

OutFile::OutFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw_errno("cannot create " + tmp_);
  buf_.reserve(kFlushAt + 4096);
}

OutFile::~OutFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

void OutFile::drain() {
  size_t done = 0;
  while (done < buf_.size()) {
    const ssize_t n = ::write(fd_, buf_.data() + done, buf_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("cannot write " + tmp_);
    }
    done += static_cast<size_t>(n);
  }
  buf_.clear();
}

void OutFile::close() {
  drain();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    ::unlink(tmp_.c_str());
    throw_errno("cannot write " + tmp_);
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    errno = err;
    throw_errno("cannot rename " + tmp_ + " to " + path_);
  }
}

}  // namespace dlcnet::trace
