#include "compare/queue_fanin.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_file.hpp"

namespace dlcnet::compare {
namespace {

const nlohmann::json& member(const nlohmann::json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw Error(where + ": missing key \"" + name + "\"");
  return j.at(name);
}

double number(const nlohmann::json& j, const std::string& where) {
  if (!j.is_number() || !std::isfinite(j.get<double>())) {
    throw Error(where + ": " + j.dump() + " is not a number");
  }
  return j.get<double>();
}

const nlohmann::json& array(const nlohmann::json& j, const char* name, const std::string& where) {
  const nlohmann::json& a = member(j, name, where);
  if (!a.is_array()) throw Error(where + "." + name + ": not an array");
  return a;
}

// FaninQueue::senders_default_window; advisory: a shape it does not know is nullopt.
std::optional<bool> senders_default_window(const nlohmann::json& doc) {
  if (!doc.contains("context") || !doc["context"].is_object()) return std::nullopt;
  const nlohmann::json& stacks = doc["context"].value("tcp_stacks", nlohmann::json());
  if (!stacks.is_array()) return std::nullopt;
  bool seen = false;
  for (const nlohmann::json& s : stacks) {
    if (!s.is_object() || !s.contains("ranks") || !s["ranks"].is_array()) return std::nullopt;
    bool sender = false;
    for (const nlohmann::json& r : s["ranks"]) sender = sender || (r.is_number() && r != 0);
    if (!sender) continue;
    if (!s.contains("routes") || !s["routes"].is_array()) return std::nullopt;
    for (const nlohmann::json& route : s["routes"]) {
      if (!route.is_object()) return std::nullopt;
      if (route.contains("initcwnd") && !route["initcwnd"].is_null()) return false;
    }
    seen = true;
  }
  return seen ? std::optional<bool>(true) : std::nullopt;
}

}  // namespace

FaninQueue fanin_queue(const nlohmann::json& doc, const std::string& file) {
  FaninQueue q;
  if (!doc.is_object() || !doc.contains("qdisc")) {
    throw Error(file +
                ": no \"qdisc\" object: not a dlc-bench fanin report, or one run without "
                "--qdisc");
  }
  const nlohmann::json& series = member(doc.at("qdisc"), "series", file + ": qdisc");
  const std::string where = file + ": qdisc.series";
  const nlohmann::json& t = array(series, "t_s", where);
  const nlohmann::json& b = array(series, "backlog_bytes", where);
  if (t.size() != b.size()) {
    throw Error(where + ": " + std::to_string(t.size()) + " t_s against " +
                std::to_string(b.size()) + " backlog_bytes");
  }
  q.series.file = file;
  q.series.format = "fanin";
  q.series.shape = QueueShape::step;
  q.series.points.reserve(t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    const double ti = number(t[i], where + ".t_s" + at);
    const double bi = number(b[i], where + ".backlog_bytes" + at);
    if (!q.series.points.empty() && ti < q.series.points.back().t_s) {
      throw Error(where + ".t_s" + at + ": " + t[i].dump() + " is before the sample ahead of it");
    }
    if (bi < 0) throw Error(where + ".backlog_bytes" + at + ": a negative backlog");
    q.series.points.push_back({ti, bi, bi});
  }
  if (doc.contains("iterations")) {
    const nlohmann::json& its = array(doc, "iterations", file);
    for (size_t i = 0; i < its.size(); ++i) {
      const std::string w = file + ": iterations[" + std::to_string(i) + "]";
      QueueRound r;
      const nlohmann::json& kind = member(its[i], "kind", w);
      if (!kind.is_string()) throw Error(w + ".kind: not a string");
      r.kind = kind.get<std::string>();
      const double it = number(member(its[i], "iteration", w), w + ".iteration");
      // whole and within int64 (converting any other double is undefined)
      if (it != std::floor(it) || std::fabs(it) >= 0x1p63) {
        throw Error(w + ".iteration: " + its[i].at("iteration").dump() + " is not a whole number");
      }
      r.iteration = static_cast<int64_t>(it);
      r.first_post_s = number(member(its[i], "first_post_s", w), w + ".first_post_s");
      r.last_arrival_s = number(member(its[i], "last_arrival_s", w), w + ".last_arrival_s");
      q.rounds.push_back(r);
    }
  }
  if (doc.contains("flow_origin_s")) {
    q.origin_s = number(doc.at("flow_origin_s"), file + ": flow_origin_s");
    q.origin_from = "flow_origin_s";
  } else if (!q.rounds.empty()) {
    q.origin_s = std::numeric_limits<double>::infinity();
    for (const QueueRound& r : q.rounds) q.origin_s = std::min(q.origin_s, r.first_post_s);
    q.origin_from = "first round";
  }
  q.senders_default_window = senders_default_window(doc);
  return q;
}

FaninQueue read_fanin_queue(InputFile& in) {
  const nlohmann::json doc = read_json(in);
  return interpret_json(in.path(), [&] { return fanin_queue(doc, in.path()); });
}

FaninQueue read_fanin_queue(const std::string& path) {
  InputFile in(path, "the fan-in report");
  return read_fanin_queue(in);
}

}  // namespace dlcnet::compare
