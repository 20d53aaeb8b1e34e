#include "trace/trace_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace dlcnet::trace {
namespace {

constexpr size_t kMaxLineBytes = size_t{16} << 20;

int open_for_reading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_errno("cannot open " + path);
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw Error("cannot read " + path + ": is a directory");
  }
  // The readers go once from start to end: tell the kernel to read ahead and drop behind.
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return fd;
}

}  // namespace

LineReader::LineReader(const std::string& path, size_t buffer_bytes)
    : fd_(open_for_reading(path)), path_(path), buf_(buffer_bytes + kLinePadding, '\0') {
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) {
    size_ = static_cast<uint64_t>(st.st_size);
    regular_ = true;
  }
}

std::string_view LineReader::peek(size_t n) {
  n = std::min(n, capacity());
  while (end_ - begin_ < n && refill()) {
  }
  return std::string_view(buf_.data() + begin_, std::min(n, end_ - begin_));
}

LineReader::~LineReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool LineReader::refill() {
  if (eof_) return false;
  // Keep the partial line at the front; grow only for a line longer than the buffer.
  if (begin_ != 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == capacity()) {
    // A line longer than any trace line (a binary file, say): refuse rather than swallow it.
    if (buf_.size() >= kMaxLineBytes) {
      throw Error(path_ + ":" + std::to_string(line_no_ + 1) + ": line longer than " +
                  std::to_string(kMaxLineBytes >> 20) + " MiB: not a text trace");
    }
    buf_.resize(capacity() * 2 + kLinePadding, '\0');
  }
  for (;;) {
    const ssize_t n = ::read(fd_, buf_.data() + end_, capacity() - end_);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("cannot read " + path_);
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    end_ += static_cast<size_t>(n);
    read_ += static_cast<uint64_t>(n);
    return true;
  }
}

bool LineReader::next(std::string_view& line, bool* had_newline) {
  size_t scanned = begin_;
  for (;;) {
    const char* nl =
        static_cast<const char*>(std::memchr(buf_.data() + scanned, '\n', end_ - scanned));
    if (nl != nullptr) {
      const size_t pos = static_cast<size_t>(nl - buf_.data());
      size_t len = pos - begin_;
      if (len != 0 && buf_[begin_ + len - 1] == '\r') --len;
      line = std::string_view(buf_.data() + begin_, len);
      begin_ = pos + 1;
      ++line_no_;
      if (had_newline != nullptr) *had_newline = true;
      return true;
    }
    const size_t pending = end_ - begin_;
    if (!refill()) {
      if (end_ == begin_) return false;
      buf_[end_] = '\n';  // the sentinel after the last line (padding makes room for it)
      size_t len = end_ - begin_;
      if (buf_[begin_ + len - 1] == '\r') --len;
      line = std::string_view(buf_.data() + begin_, len);
      begin_ = end_;
      ++line_no_;
      if (had_newline != nullptr) *had_newline = false;
      return true;
    }
    scanned = begin_ + pending;  // refill moved the pending bytes to the front
  }
}

std::string excerpt(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  return std::string(s.substr(0, max)) + "...";
}

}  // namespace dlcnet::trace
