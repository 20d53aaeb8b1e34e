#include "core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <streambuf>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace dlcnet {

// A read-only streambuf over a file descriptor whose get area can be filled further ahead of
// the reading position (peek_first_line) without consuming anything.
class InputFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(int fd) : fd_(fd), data_(kChunk) {
    setg(data_.data(), data_.data(), data_.data());
  }
  ~Buffer() override { ::close(fd_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // Reads until at least `want` bytes are ahead of the reading position or the data ends;
  // the bytes ahead, [gptr(), egptr()).
  size_t fill_ahead(size_t want) {
    while (static_cast<size_t>(egptr() - gptr()) < want && read_more()) {
    }
    return static_cast<size_t>(egptr() - gptr());
  }
  std::string_view ahead() const noexcept {
    return {gptr(), static_cast<size_t>(egptr() - gptr())};
  }
  void consume_ahead() noexcept { setg(eback(), egptr(), egptr()); }
  int error() const noexcept { return error_; }

 protected:
  int_type underflow() override {
    if (gptr() == egptr() && !read_more()) return traits_type::eof();
    return traits_type::to_int_type(*gptr());
  }

 private:
  static constexpr size_t kChunk = size_t{64} << 10;

  // Appends one read(2) to the bytes ahead (moved to the front, the buffer grown as needed).
  bool read_more() {
    if (eof_) return false;
    const size_t ahead = static_cast<size_t>(egptr() - gptr());
    if (gptr() != data_.data()) std::memmove(data_.data(), gptr(), ahead);
    if (data_.size() - ahead < kChunk) data_.resize(ahead + kChunk);
    ssize_t n = 0;
    do {
      n = ::read(fd_, data_.data() + ahead, data_.size() - ahead);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
      if (n < 0) error_ = errno;
      eof_ = true;
    }
    const size_t got = n > 0 ? static_cast<size_t>(n) : 0;
    setg(data_.data(), data_.data(), data_.data() + ahead + got);
    return got > 0;
  }

  int fd_;
  std::vector<char> data_;
  bool eof_ = false;
  int error_ = 0;
};

namespace {

int open_input(const std::string& path, const std::string& what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path + ": cannot open " + what + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw Error(path + ": is a directory, not " + what);
  }
  return fd;
}

bool blank(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

}  // namespace

InputFile::InputFile(std::string path, std::string what)
    : path_(std::move(path)),
      what_(std::move(what)),
      buf_(std::make_unique<Buffer>(open_input(path_, what_))),
      in_(buf_.get()) {}

InputFile::~InputFile() = default;

std::string InputFile::peek_first_line(size_t max_bytes) {
  // A bound on the read-ahead, however much white space comes first.
  const size_t limit = max_bytes + (size_t{1} << 20);
  size_t want = 4096;
  for (;;) {
    const size_t have = buf_->fill_ahead(want);
    const std::string_view a = buf_->ahead();
    size_t b = 0;
    while (b < a.size() && blank(a[b])) ++b;
    const bool ended = have < want;
    if (b < a.size()) {
      const size_t end = std::min(a.find('\n', b), a.size());
      if (end < a.size() || ended || end - b >= max_bytes || have >= limit) {
        return std::string(a.substr(b, std::min(end - b, max_bytes)));
      }
    } else if (ended || have >= limit) {
      return {};
    }
    want = std::min(have * 2, limit);
  }
}

std::string InputFile::read_all() {
  std::string text;
  for (;;) {
    const std::string_view a = buf_->ahead();
    text.append(a);
    buf_->consume_ahead();
    if (buf_->fill_ahead(1) == 0) break;
  }
  check_read();
  return text;
}

void InputFile::check_read() const {
  if (buf_->error() != 0) {
    throw Error(path_ + ": cannot read " + what_ + ": " + std::strerror(buf_->error()));
  }
}

}  // namespace dlcnet
