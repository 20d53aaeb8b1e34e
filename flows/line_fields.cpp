#include "flows/line_fields.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace dlcnet {
namespace {

bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r';
}

}  // namespace

bool LineFields::next_line() {
  while (std::getline(in_, line_)) {
    ++line_no_;
    pos_ = 0;
    size_t first = 0;
    while (first < line_.size() && is_space(line_[first])) ++first;
    if (first == line_.size()) continue;  // blank
    if (comment_ != 0 && line_[first] == comment_) {
      comments_.push_back(line_.substr(first + 1));
      continue;
    }
    return true;
  }
  return false;
}

void LineFields::fail(std::string_view field, const std::string& why) const {
  throw Error(file_ + ":" + std::to_string(line_no_) + ": field " + std::string(field) + ": " +
              why);
}

void LineFields::fail_line(const std::string& why) const {
  throw Error(file_ + ":" + std::to_string(line_no_) + ": " + why);
}

std::string_view LineFields::field(std::string_view name) {
  if (separator_ != 0) return separated(name);
  while (pos_ < line_.size() && is_space(line_[pos_])) ++pos_;
  if (pos_ == line_.size()) fail(name, "missing");
  const size_t begin = pos_;
  while (pos_ < line_.size() && !is_space(line_[pos_])) ++pos_;
  return std::string_view(line_).substr(begin, pos_ - begin);
}

std::string_view LineFields::separated(std::string_view name) {
  if (pos_ > line_.size()) fail(name, "missing");  // past the last separator
  size_t end = line_.find(separator_, pos_);
  if (end == std::string::npos) end = line_.size();
  size_t begin = pos_, last = end;
  pos_ = end + 1;  // past the separator (past the end after the last field)
  while (begin < last && is_space(line_[begin])) ++begin;
  while (last > begin && is_space(line_[last - 1])) --last;
  if (begin == last) fail(name, "missing");
  return std::string_view(line_).substr(begin, last - begin);
}

std::string_view LineFields::text(std::string_view name) {
  return field(name);
}

uint64_t LineFields::whole(std::string_view name) {
  const std::string_view f = field(name);
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (ec != std::errc() || p != f.data() + f.size())
    fail(name, "\"" + std::string(f) + "\" is not a whole number");
  return v;
}

int64_t LineFields::integer(std::string_view name) {
  const std::string_view f = field(name);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (ec != std::errc() || p != f.data() + f.size())
    fail(name, "\"" + std::string(f) + "\" is not an integer");
  return v;
}

uint32_t LineFields::whole32(std::string_view name) {
  const uint64_t v = whole(name);
  if (v > std::numeric_limits<uint32_t>::max())
    fail(name, std::to_string(v) + " is larger than 4294967295");
  return static_cast<uint32_t>(v);
}

double LineFields::real(std::string_view name) {
  const std::string_view f = field(name);
  double v = 0;
  auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (ec != std::errc() || p != f.data() + f.size() || !std::isfinite(v))
    fail(name, "\"" + std::string(f) + "\" is not a number");
  return v;
}

uint32_t LineFields::hex32(std::string_view name) {
  const std::string_view f = field(name);
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v, 16);
  if (ec != std::errc() || p != f.data() + f.size())
    fail(name, "\"" + std::string(f) + "\" is not an address in hex (8 digits)");
  return v;
}

bool LineFields::at_end() {
  if (separator_ != 0) return pos_ > line_.size();
  while (pos_ < line_.size() && is_space(line_[pos_])) ++pos_;
  return pos_ == line_.size();
}

void LineFields::expect_end(std::string_view what) {
  if (separator_ != 0) {
    if (pos_ <= line_.size())
      fail_line("more fields than " + std::string(what) + ": \"" + line_.substr(pos_) + "\"");
    return;
  }
  while (pos_ < line_.size() && is_space(line_[pos_])) ++pos_;
  if (pos_ != line_.size())
    fail_line("more fields than " + std::string(what) + ": \"" + line_.substr(pos_) + "\"");
}

}  // namespace dlcnet
