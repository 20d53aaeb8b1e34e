#include "replay/chakra_report.hpp"

#include "core/table.hpp"
#include "replay/replay_json.hpp"
#include "trace/chakra/chakra_stats.hpp"

namespace dlcnet::replay {
namespace {

namespace ck = trace::chakra;

const char* size_reading_name(ck::SizeReading r) {
  return r == ck::SizeReading::kPerRank ? "per-rank" : "whole";
}

void print_spans(std::ostream& out, std::span<const CollectiveSpan> spans) {
  if (spans.empty()) return;
  Table t({{"#", ""},
           {"collective", ""},
           {"comm_size", "B"},
           {"messages", ""},
           {"bytes", "B"},
           {"span", "usec"},
           {"trace", "usec"}});
  for (const CollectiveSpan& s : spans) {
    t.add_row({std::to_string(s.number), std::string(ck::collective_name(s.type)),
               std::to_string(s.comm_size), std::to_string(s.messages), std::to_string(s.bytes),
               s.messages ? fixed(s.span_s() * 1e6, 1) : "-",
               s.trace_duration_us ? std::to_string(s.trace_duration_us) : "-"});
  }
  out << "\n# per collective: span = its first message's post to its last message's arrival, "
         "on rank 0's clock; trace = the longest duration_micros of its nodes\n";
  t.print(out);
}

double rank_replay_s(const RankReport& k) {
  return (k.end_ns - k.start_ns) * 1e-9;
}

void print_ranks(std::ostream& out, const ReplayReport& r, const ChakraJobFacts& f,
                 const RankNamer& name) {
  Table t({{"rank", ""},
           {"file", ""},
           {"replay", "usec"},
           {"compute", "usec"},
           {"comm", "usec"},
           {"both", "usec"},
           {"trace compute", "usec"},
           {"trace comm", "usec"},
           {"trace both", "usec"}});
  for (const RankReport& k : r.ranks) {
    const auto i = static_cast<size_t>(k.rank);
    const bool known = i < f.compute_us.size();
    t.add_row({std::to_string(k.rank), name(k.rank), fixed(rank_replay_s(k) * 1e6, 1),
               fixed(k.compute_s * 1e6, 1), fixed(k.comm_s * 1e6, 1), fixed(k.overlap_s * 1e6, 1),
               known ? std::to_string(f.compute_us[i]) : "-",
               known ? std::to_string(f.comm_us[i]) : "-",
               known && f.overlap_us[i] ? std::to_string(*f.overlap_us[i]) : "-"});
  }
  out << "\n# per rank: replay = its run, release to its last completion, on rank 0's clock; "
         "compute = its compute nodes' replayed durations (dag), comm = a message of its own in "
         "flight (a send from its post to its completion, a receive from the sender's post to "
         "its arrival), both = the time they overlap; trace = the durations its file records "
         "(dlc-trace stats)\n";
  t.print(out);
}

}  // namespace

ChakraJobFacts chakra_job_facts(const ck::Job& job, const ck::CollectiveOptions& coll) {
  ChakraJobFacts f;
  f.ranks = job.world;
  for (const ck::Rank& r : job.ranks) {
    f.nodes += r.nodes.size();
    for (const ck::Node& n : r.nodes) f.collectives += n.type == ck::NodeType::kCommColl ? 1 : 0;
  }
  f.messages = chakra_messages(job, coll);
  f.collectives_read = coll;
  for (const ck::RankStats& r : ck::compute_stats(job, coll).ranks) {
    f.compute_us.push_back(r.compute_us);
    f.comm_us.push_back(r.comm_us);
    f.overlap_us.push_back(r.overlap_us);
  }
  return f;
}

std::vector<double> chakra_think_times_s(const ck::Job& job, const PlanOptions& o) {
  std::vector<double> out;
  if (o.mode != Mode::dag) return out;
  for (const ck::Rank& r : job.ranks) {
    for (const ck::Node& n : r.nodes) {
      const bool message = n.type == ck::NodeType::kCommSend || n.type == ck::NodeType::kCommRecv ||
                           n.type == ck::NodeType::kCommColl;
      if (!message && n.duration_us > 0) {
        out.push_back(static_cast<double>(n.duration_us) * 1e-6 * o.time_scale);
      }
    }
  }
  return out;
}

void print_chakra_report(std::ostream& out, const ReplayReport& r, const ChakraJobFacts& f,
                         std::span<const CollectiveSpan> spans, const RankNamer& name) {
  out << "# dlc-replay:";
  for (const auto& in : r.inputs) out << ' ' << in;
  out << "  (Chakra job: " << f.ranks << " ranks, " << f.nodes << " nodes, " << f.collectives
      << " collective nodes, " << f.messages.count << " messages)\n";
  out << "# mode " << to_string(r.options.mode) << ", time scale " << r.options.time_scale
      << ", op " << to_string(r.options.transfer) << ", transport " << r.transport << " ("
      << r.transport_reason << "), " << r.world_size << " ranks from " << r.rank_source << '\n';
  out << "# collectives: comm_size read as the "
      << size_reading_name(f.collectives_read.size_reading) << " buffer, root "
      << f.collectives_read.root << "; rank r replays the nodes of rank r\n";
  print_spans(out, spans);
  print_ranks(out, r, f, name);
  print_outcome(out, r, name);
}

nlohmann::json chakra_report_json(const ReplayReport& r, const ChakraJobFacts& f,
                                  std::span<const CollectiveSpan> spans, const RankNamer& name) {
  nlohmann::json doc = report_json_common(r, name);
  doc["job"] = {{"inputs", r.inputs},
                {"format", "chakra"},
                {"ranks", f.ranks},
                {"nodes", f.nodes},
                {"collective_nodes", f.collectives},
                {"messages", f.messages.count},
                {"largest_message", f.messages.largest},
                {"size_reading", size_reading_name(f.collectives_read.size_reading)},
                {"root", f.collectives_read.root}};
  nlohmann::json c = nlohmann::json::array();
  for (const CollectiveSpan& s : spans) {
    c.push_back(
        {{"number", s.number},
         {"collective", ck::collective_name(s.type)},
         {"comm_size", s.comm_size},
         {"messages", s.messages},
         {"bytes", s.bytes},
         {"span_s", s.messages ? nlohmann::json(s.span_s()) : nlohmann::json()},
         {"trace_duration_s", s.trace_duration_us
                                  ? nlohmann::json(static_cast<double>(s.trace_duration_us) * 1e-6)
                                  : nlohmann::json()}});
  }
  doc["collectives"] = c;
  // doc["ranks"] holds r.ranks in order (report_json_common).
  for (size_t j = 0; j < r.ranks.size(); ++j) {
    const RankReport& k = r.ranks[j];
    auto& x = doc["ranks"][j];
    x["compute_s"] = k.compute_s;
    x["comm_s"] = k.comm_s;
    x["overlap_s"] = k.overlap_s;
    const auto i = static_cast<size_t>(k.rank);
    if (i >= f.compute_us.size()) continue;
    x["trace_compute_s"] = static_cast<double>(f.compute_us[i]) * 1e-6;
    x["trace_comm_s"] = static_cast<double>(f.comm_us[i]) * 1e-6;
    x["trace_overlap_s"] = f.overlap_us[i]
                               ? nlohmann::json(static_cast<double>(*f.overlap_us[i]) * 1e-6)
                               : nlohmann::json();
  }
  return doc;
}

}  // namespace dlcnet::replay
