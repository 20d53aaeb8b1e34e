// Buffered output for the trace writers: a few MB of text a second per core with to_chars,
// no iostreams. Written to "<path>.tmp" and renamed on close, so a failed run leaves no
// half-written trace under the real name.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlcnet::trace {

class OutFile {
 public:
  // Throws Error naming the path when it cannot be created.
  explicit OutFile(std::string path);
  ~OutFile();  // an unclosed file is discarded (its temporary removed)
  OutFile(const OutFile&) = delete;
  OutFile& operator=(const OutFile&) = delete;

  OutFile& put(std::string_view s) {
    if (buf_.size() + s.size() > kFlushAt) drain();
    buf_.insert(buf_.end(), s.begin(), s.end());
    return *this;
  }
  OutFile& put(char c) {
    if (buf_.size() + 1 > kFlushAt) drain();
    buf_.push_back(c);
    return *this;
  }
  OutFile& num(int64_t v) {
    char tmp[24];
    auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
    return put(std::string_view(tmp, static_cast<size_t>(res.ptr - tmp)));
  }
  // Flushes, closes and renames into place. Throws Error on any write error.
  void close();

 private:
  static constexpr size_t kFlushAt = size_t{1} << 20;
  void drain();
  std::string path_;
  std::string tmp_;
  int fd_ = -1;
  std::vector<char> buf_;
};

}  // namespace dlcnet::trace
