// Text primitives of the trace readers: a streaming line reader over a fixed buffer (bounded
// memory whatever the file size) and a whitespace tokenizer with std::from_chars. No iostreams
// and no allocation per field: the loader's speed target is 5 million records a second.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace dlcnet::trace {

class LineReader {
 public:
  // Bytes readable after the end of every returned line: parsers may load a whole word at the
  // end of a line. The first of them is always '\n' or '\r' (the line end, or a sentinel after
  // a last line without one), so a scan for digits or blanks stops at the line end by itself.
  static constexpr size_t kLinePadding = 64;

  // Throws Error naming the path when it cannot be opened.
  explicit LineReader(const std::string& path, size_t buffer_bytes = 1 << 17);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Next line without its end ("\n" or "\r\n"); false at the end of the file. A final line
  // without a newline is returned with *had_newline == false. Throws Error on a read error.
  bool next(std::string_view& line, bool* had_newline = nullptr);
  uint32_t line_number() const noexcept { return line_no_; }
  // The size of a regular file; 0 for a pipe, FIFO or device (size unknown: read to the end).
  uint64_t file_size() const noexcept { return size_; }
  bool regular() const noexcept { return regular_; }
  // Up to `n` bytes from the current position, read ahead but not consumed: a format sniff on a
  // pipe or FIFO (which cannot be opened twice or rewound) loses nothing. Shorter at the end of
  // the file.
  std::string_view peek(size_t n);
  // Bytes of the lines returned so far (line ends included).
  uint64_t consumed() const noexcept { return read_ - (end_ - begin_); }

 private:
  bool refill();
  size_t capacity() const noexcept { return buf_.size() - kLinePadding; }
  int fd_ = -1;
  std::string path_;
  std::vector<char> buf_;
  size_t begin_ = 0;  // next unread byte
  size_t end_ = 0;    // end of valid data
  bool eof_ = false;
  uint32_t line_no_ = 0;
  uint64_t size_ = 0;
  bool regular_ = false;
  uint64_t read_ = 0;  // bytes read from the file
};

// A UTF-8 byte-order mark: some editors put one in front of a text file; the readers name it
// rather than call the file "not a trace".
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

inline bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r';
}

// Walks one line token by token; tokens are separated by runs of spaces and tabs.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view line) noexcept
      : p_(line.data()), end_(line.data() + line.size()) {}

  bool next(std::string_view& tok) noexcept {
    while (p_ != end_ && is_space(*p_)) ++p_;
    if (p_ == end_) return false;
    const char* b = p_;
    while (p_ != end_ && !is_space(*p_)) ++p_;
    tok = std::string_view(b, static_cast<size_t>(p_ - b));
    return true;
  }
  // Everything left, without surrounding whitespace (may be empty).
  std::string_view rest() noexcept {
    while (p_ != end_ && is_space(*p_)) ++p_;
    const char* e = end_;
    while (e != p_ && is_space(e[-1])) --e;
    return std::string_view(p_, static_cast<size_t>(e - p_));
  }

 private:
  const char* p_;
  const char* end_;
};

// Whole-token integer parse; false on anything but an optional '-' and digits that fit.
template <typename T>
inline bool parse_int(std::string_view s, T& out) noexcept {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;
  auto [ptr, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && ptr == e;
}

// Parses an integer at the front of `s` and advances past it.
template <typename T>
inline bool take_int(std::string_view& s, T& out) noexcept {
  const char* b = s.data();
  const char* e = b + s.size();
  auto [ptr, ec] = std::from_chars(b, e, out);
  if (ec != std::errc() || ptr == b) return false;
  s.remove_prefix(static_cast<size_t>(ptr - b));
  return true;
}

// Shortens text for a diagnostic: "found 'xyz...'".
std::string excerpt(std::string_view s, size_t max = 40);

}  // namespace dlcnet::trace
