#include "core/json_file.hpp"

#include <algorithm>
#include <vector>

namespace dlcnet {
namespace {

using Json = nlohmann::json;

// nlohmann's SAX events, handed to its own DOM builder, with the path to the value being
// parsed kept alongside (objects: the key; arrays: the index) and the first error recorded
// with its byte offset instead of thrown.
class TrackingSax {
 public:
  explicit TrackingSax(Json& root) : dom_(root, false) {}

  bool null() { return value() && dom_.null(); }
  bool boolean(bool v) { return value() && dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return value() && dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const Json::string_t& s) {
    return value() && dom_.number_float(v, s);
  }
  bool string(Json::string_t& v) { return value() && dom_.string(v); }
  bool binary(Json::binary_t& v) { return value() && dom_.binary(v); }
  bool start_object(std::size_t n) {
    value();
    levels_.push_back({false, 0, {}});
    return dom_.start_object(n);
  }
  bool key(Json::string_t& k) {
    levels_.back().key = k;
    return dom_.key(k);
  }
  bool end_object() {
    levels_.pop_back();
    return dom_.end_object();
  }
  bool start_array(std::size_t n) {
    value();
    levels_.push_back({true, 0, {}});
    return dom_.start_array(n);
  }
  bool end_array() {
    levels_.pop_back();
    return dom_.end_array();
  }
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& e) {
    if (!failed_) {
      failed_ = true;
      position_ = position;
      message_ = e.what();
      path_ = path();
    }
    return dom_.parse_error(position, token, e);
  }

  bool failed() const noexcept { return failed_; }
  std::size_t position() const noexcept { return position_; }
  const std::string& message() const noexcept { return message_; }
  const std::string& error_path() const noexcept { return path_; }

 private:
  struct Level {
    bool array;
    std::size_t count;  // arrays: elements begun
    std::string key;    // objects: the last key
  };

  bool value() {
    if (!levels_.empty() && levels_.back().array) ++levels_.back().count;
    return true;
  }

  // "qdisc.series.t_s[3]": the value being parsed when the error came.
  std::string path() const {
    std::string p;
    for (size_t i = 0; i < levels_.size(); ++i) {
      const Level& l = levels_[i];
      if (l.array) {
        const size_t index = i + 1 == levels_.size() ? l.count : l.count - 1;
        p += "[" + std::to_string(index) + "]";
      } else if (!l.key.empty()) {
        p += (p.empty() ? "" : ".") + l.key;
      }
    }
    return p;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  std::vector<Level> levels_;
  bool failed_ = false;
  std::size_t position_ = 0;
  std::string message_, path_;
};

// "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." ->
// "syntax error ...": the file, line and column are said once, in front.
std::string plain(std::string what) {
  if (what.rfind("[json.exception.", 0) == 0) {
    const size_t end = what.find("] ");
    if (end != std::string::npos) what.erase(0, end + 2);
  }
  if (what.rfind("parse error", 0) == 0) {
    const size_t colon = what.find(": ");
    if (colon != std::string::npos) what.erase(0, colon + 2);
  }
  return what;
}

}  // namespace

Json parse_json(std::string_view text, const std::string& file) {
  Json doc;
  TrackingSax sax(doc);
  bool ok = false;
  try {
    ok = Json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const Json::exception& e) {  // not expected: the SAX records errors
    throw Error(file + ": " + plain(e.what()));
  }
  if (ok && !sax.failed()) return doc;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw Error(file + ": empty: no JSON document in it");
  }
  const size_t at = std::min(sax.position(), text.size());
  const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
  const size_t line_start = at == 0 ? 0 : text.rfind('\n', at - 1);
  const size_t column = line_start == std::string_view::npos ? at : at - line_start - 1;
  std::string msg = file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  if (!sax.error_path().empty()) msg += sax.error_path() + ": ";
  throw Error(msg + plain(sax.message()));
}

Json read_json(InputFile& in) {
  return parse_json(in.read_all(), in.path());
}

Json read_json_file(const std::string& path, const std::string& what) {
  InputFile in(path, what);
  return read_json(in);
}

}  // namespace dlcnet
