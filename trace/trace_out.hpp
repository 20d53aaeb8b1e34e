// Buffered output for the trace writers: a few MB of text a second per core with to_chars,
// no iostreams. An OutputFile (core/output_file.hpp): a regular file is written to a temporary
// next to it and renamed on close, so a failed run leaves no half-written trace under the real
// name; a symbolic link is followed, a FIFO or a device written through.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/output_file.hpp"

namespace dlcnet::trace {

class OutFile {
 public:
  // Throws Error naming `option` and the path when it cannot be created.
  explicit OutFile(std::string path, std::string option = "-o")
      : out_(std::move(option), std::move(path)) {}

  OutFile& put(std::string_view s) {
    out_.put(s);
    return *this;
  }
  OutFile& put(char c) { return put(std::string_view(&c, 1)); }
  OutFile& num(int64_t v) {
    char tmp[24];
    auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
    return put(std::string_view(tmp, static_cast<size_t>(res.ptr - tmp)));
  }
  // Flushes, closes and renames into place. Throws Error on any write error. Without it the
  // file is discarded.
  void close() { out_.commit(); }

 private:
  OutputFile out_;
};

}  // namespace dlcnet::trace
