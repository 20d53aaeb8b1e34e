#include "trace/chakra/chakra_stats_report.hpp"

#include "core/table.hpp"

namespace dlcnet::trace::chakra {
namespace {

using nlohmann::json;

std::string n(uint64_t v) {
  return std::to_string(v);
}

std::string_view reading_name(SizeReading r) {
  return r == SizeReading::kWhole ? "whole" : "per-rank";
}

json traffic_json(const Traffic& t) {
  return {{"sends", t.sends},
          {"send_bytes", t.send_bytes},
          {"receives", t.recvs},
          {"receive_bytes", t.recv_bytes}};
}

std::string pg(const std::string& name) {
  return name.empty() ? "(world)" : name;
}

}  // namespace

void print_stats(std::ostream& out, const JobStats& s) {
  out << "# Chakra job: " << s.world << " ranks; collectives expanded to point-to-point "
      << "messages (comm_size of all-gather, reduce-scatter, gather, scatter: "
      << reading_name(s.options.size_reading) << " buffer; root " << s.options.root << ")\n";
  Table ranks({{"rank", ""},
               {"nodes", ""},
               {"comp", ""},
               {"send", ""},
               {"recv", ""},
               {"coll", ""},
               {"other", ""},
               {"compute", "usec"},
               {"comm", "usec"},
               {"overlap", "usec"},
               {"msgs_sent", ""},
               {"bytes_sent", "B"},
               {"msgs_recv", ""},
               {"bytes_recv", "B"}});
  for (const RankStats& r : s.ranks) {
    const auto by = [&](NodeType t) { return r.nodes_by_type[static_cast<size_t>(t)]; };
    uint64_t nodes = 0;
    for (const uint64_t c : r.nodes_by_type) nodes += c;
    const uint64_t other = nodes - by(NodeType::kComp) - by(NodeType::kCommSend) -
                           by(NodeType::kCommRecv) - by(NodeType::kCommColl);
    const Traffic t = r.total();
    ranks.add_row({n(static_cast<uint64_t>(r.rank)), n(nodes), n(by(NodeType::kComp)),
                   n(by(NodeType::kCommSend)), n(by(NodeType::kCommRecv)),
                   n(by(NodeType::kCommColl)), n(other), n(r.compute_us), n(r.comm_us),
                   r.overlap_us ? n(*r.overlap_us) : "-", n(t.sends), n(t.send_bytes), n(t.recvs),
                   n(t.recv_bytes)});
  }
  ranks.print(out);
  if (s.collectives.empty()) return;
  out << "\n# collectives (over every rank)\n";
  Table colls({{"collective", ""},
               {"group", ""},
               {"ranks", ""},
               {"algorithm", ""},
               {"nodes", ""},
               {"comm_size", "B"},
               {"msgs", ""},
               {"bytes", "B"}});
  for (const CollectiveStats& c : s.collectives) {
    colls.add_row({std::string(collective_name(c.type)), pg(c.pg_name), n(c.group_ranks),
                   std::string(algorithm_name(c.type)), n(c.nodes), n(c.comm_bytes),
                   n(c.traffic.sends), n(c.traffic.send_bytes)});
  }
  colls.print(out);
}

json stats_to_json(const JobStats& s) {
  json ranks = json::array();
  for (const RankStats& r : s.ranks) {
    json by_type = json::object();
    for (size_t t = 0; t < kNumNodeTypes; ++t) {
      if (r.nodes_by_type[t] != 0) {
        by_type[std::string(node_type_name(static_cast<NodeType>(t)))] = r.nodes_by_type[t];
      }
    }
    ranks.push_back({{"rank", r.rank},
                     {"file", r.file},
                     {"nodes_by_type", by_type},
                     {"compute_us", r.compute_us},
                     {"comm_us", r.comm_us},
                     {"overlap_us", r.overlap_us ? json(*r.overlap_us) : json()},
                     {"other_us", r.other_us},
                     {"point_to_point", traffic_json(r.p2p)},
                     {"collectives", r.collectives},
                     {"collective_messages", traffic_json(r.collective)},
                     {"messages", traffic_json(r.total())}});
  }
  json colls = json::array();
  for (const CollectiveStats& c : s.collectives) {
    colls.push_back({{"type", std::string(collective_name(c.type))},
                     {"pg_name", c.pg_name},
                     {"group_ranks", c.group_ranks},
                     {"algorithm", std::string(algorithm_name(c.type))},
                     {"nodes", c.nodes},
                     {"comm_size_bytes", c.comm_bytes},
                     {"messages", traffic_json(c.traffic)}});
  }
  return {{"format", "chakra"},
          {"world", s.world},
          {"options",
           {{"size_reading", std::string(reading_name(s.options.size_reading))},
            {"root", s.options.root}}},
          {"ranks", ranks},
          {"collectives", colls}};
}

}  // namespace dlcnet::trace::chakra
