#include "compare/queue_simai.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "flows/line_fields.hpp"

namespace dlcnet::compare {
namespace {

constexpr const char* kHeader = "time,sw_id,port_id,q_id,q_len,port_len";

std::string without_spaces(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\r') o += c;
  }
  return o;
}

}  // namespace

std::vector<QueueSeries> read_simai_queue(std::istream& in, const std::string& file,
                                          int64_t queue) {
  LineFields f(in, file, 0, ',');
  if (!f.next_line()) throw Error(file + ": empty (SimAI's queue monitor starts with a header)");
  if (without_spaces(f.line()) != kHeader) {
    f.fail_line(
        "not SimAI's queue monitor header \"time, sw_id, port_id, q_id, q_len, "
        "port_len\": \"" +
        f.line() + "\"");
  }
  std::map<std::pair<int64_t, int64_t>, QueueSeries> ports;
  double last_t = 0;
  while (f.next_line()) {
    const uint64_t t_ns = f.whole("time");
    const auto sw = static_cast<int64_t>(f.whole32("sw_id"));
    const auto port = static_cast<int64_t>(f.whole32("port_id"));
    const auto q = static_cast<int64_t>(f.whole32("q_id"));
    const double q_len = static_cast<double>(f.whole("q_len"));
    const double port_len = static_cast<double>(f.whole("port_len"));
    f.expect_end("time, sw_id, port_id, q_id, q_len, port_len");
    const double t = static_cast<double>(t_ns) * 1e-9;
    if (t < last_t) {
      f.fail("time", std::to_string(t_ns) + " is before the previous row's " +
                         std::to_string(static_cast<uint64_t>(last_t * 1e9 + 0.5)));
    }
    last_t = t;
    if (queue >= 0 && q != queue) continue;
    QueueSeries& s = ports[{sw, port}];
    if (s.points.empty()) {
      s.file = file;
      s.format = "simai";
      s.port = {sw, port, queue};
      s.shape = QueueShape::step;
    }
    const double v = queue >= 0 ? q_len : port_len;
    if (!s.points.empty() && s.points.back().t_s == t) {
      if (queue < 0 && s.points.back().bytes != v) {
        f.fail("port_len", std::to_string(static_cast<uint64_t>(v)) + " differs from " +
                               std::to_string(static_cast<uint64_t>(s.points.back().bytes)) +
                               " on the port's other rows of the same time");
      }
      continue;
    }
    s.points.push_back({t, v, v});
  }
  std::vector<QueueSeries> out;
  for (auto& [key, s] : ports) out.push_back(std::move(s));
  return out;
}

std::vector<QueueSeries> read_simai_queue(const std::string& path, int64_t queue) {
  return read_input(path, "SimAI's queue monitor",
                    [&](std::istream& in) { return read_simai_queue(in, path, queue); });
}

}  // namespace dlcnet::compare
