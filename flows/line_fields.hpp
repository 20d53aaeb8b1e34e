// Text fields, one line at a time, separated by whitespace (or by a separator such as ',' with
// spaces around it ignored), with errors that name the file, the line and the field:
// "flow.txt:7: field size: \"12x\" is not a whole number".
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlcnet {

class LineFields {
 public:
  // `comment`: lines whose first character other than a space is this one are not data: they
  // are kept in comments() (none when 0, as in HPCC's formats).
  // `separator`: 0 for runs of whitespace; else fields end at that character (an empty field
  // is missing) and the spaces around each field are not part of it (SimAI's "1, 2, 3").
  LineFields(std::istream& in, std::string file, char comment = 0, char separator = 0)
      : in_(in), file_(std::move(file)), comment_(comment), separator_(separator) {}

  // The next line that is neither blank nor a comment; false at the end of the input.
  bool next_line();
  // The current line as read (for sniffing a header).
  const std::string& line() const noexcept { return line_; }
  size_t line_number() const noexcept { return line_no_; }
  const std::vector<std::string>& comments() const noexcept { return comments_; }

  // The next field of the current line, parsed; each throws Error naming `name`.
  uint64_t whole(std::string_view name);
  uint32_t whole32(std::string_view name);
  int64_t integer(std::string_view name);        // whole, possibly negative
  double real(std::string_view name);            // finite
  std::string_view text(std::string_view name);  // as it is (valid until the next line)
  uint32_t hex32(std::string_view name);
  // True when the current line has no field left.
  bool at_end();
  // Throws unless the line has no field left (`what`: what the line holds, for the message).
  void expect_end(std::string_view what);

  [[noreturn]] void fail(std::string_view field, const std::string& why) const;
  [[noreturn]] void fail_line(const std::string& why) const;

 private:
  std::string_view field(std::string_view name);
  std::string_view separated(std::string_view name);
  std::istream& in_;
  std::string file_, line_;
  char comment_ = 0, separator_ = 0;
  std::vector<std::string> comments_;
  size_t line_no_ = 0, pos_ = 0;
};

}  // namespace dlcnet
