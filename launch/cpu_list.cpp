#include "launch/cpu_list.hpp"

#include <algorithm>
#include <charconv>

#include "core/error.hpp"

namespace dlcnet {
namespace {

// Far above any machine's CPU count, low enough that a typo cannot allocate gigabytes.
constexpr unsigned kMaxCpu = 65535;

bool parse_cpu(std::string_view s, unsigned& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && out <= kMaxCpu;
}

std::string list_problem(const std::string& text, std::vector<unsigned>& cpus) {
  const std::string bad = "--cpu: '" + text + "' is not auto, none or a CPU list such as 0-3,8";
  std::string_view rest = text;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const size_t dash = item.find('-');
    unsigned lo = 0, hi = 0;
    if (!parse_cpu(item.substr(0, dash), lo)) return bad;
    hi = lo;
    if (dash != std::string_view::npos && !parse_cpu(item.substr(dash + 1), hi)) return bad;
    if (hi < lo) return "--cpu: '" + std::string(item) + "' is a range that runs backwards";
    for (unsigned c = lo; c <= hi; ++c) cpus.push_back(c);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return "";
}

}  // namespace

std::string cpu_request_problem(const std::string& text) {
  if (text == "auto" || text == "none") return "";
  std::vector<unsigned> cpus;
  return list_problem(text, cpus);
}

CpuRequest parse_cpu_request(const std::string& text) {
  CpuRequest r;
  r.text = text;
  if (text == "auto") return r;
  if (text == "none") {
    r.mode = CpuRequest::Mode::none;
    return r;
  }
  r.mode = CpuRequest::Mode::list;
  if (std::string problem = list_problem(text, r.cpus); !problem.empty()) throw Error(problem);
  return r;
}

std::string format_cpu_list(const std::vector<unsigned>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace dlcnet
