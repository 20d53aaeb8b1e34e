#include "flows/flow_report.hpp"

#include <algorithm>
#include <cmath>

#include "core/stats_json.hpp"
#include "core/table.hpp"
#include "core/units.hpp"

namespace dlcnet {
namespace {

std::string signed_duration(double ns) {
  const double a = std::fabs(ns);
  const char* sign = ns < 0 ? "-" : "+";
  if (a >= 1e9) return sign + fixed(a * 1e-9, 3) + " s";
  if (a >= 1e6) return sign + fixed(a * 1e-6, 3) + " ms";
  return sign + fixed(a * 1e-3, 1) + " us";
}

}  // namespace

nlohmann::json clocks_json(std::span<const ClockReport> clocks) {
  nlohmann::json a = nlohmann::json::array();
  for (size_t k = 0; k < clocks.size(); ++k) {
    const ClockReport& c = clocks[k];
    a.push_back({{"rank", k},
                 {"host", c.host.hostname},
                 {"same_kernel_as_rank0", c.model.same_clock},
                 {"method", k == 0               ? "reference"
                            : c.model.same_clock ? "clock_monotonic"
                                                 : "ping_pong"},
                 {"offset_s", c.model.offset_ns * 1e-9},
                 {"drift", c.model.drift},
                 // Rank k's clock minus rank 0's at rank 0's time t is offset + drift * (t - at):
                 // ClockModel::to_reference() (core/clock_model.hpp) puts a record on rank 0's
                 // clock.
                 {"at_s", c.model.at_ns * 1e-9},
                 {"uncertainty_s", c.model.uncertainty_ns * 1e-9},
                 // Another host's rank whose ping-pongs this rank's estimates went through
                 // (the leader of its kernel), or null.
                 {"via_rank", c.via >= 0 ? nlohmann::json(c.via) : nlohmann::json(nullptr)},
                 // The ping-pong estimates (0 samples for ranks on rank 0's kernel, which the
                 // job layer aligns through CLOCK_MONOTONIC alone).
                 {"estimate_before",
                  {{"offset_s", c.before.offset_ns * 1e-9},
                   {"uncertainty_s", c.before.uncertainty_ns * 1e-9},
                   {"rtt_min_s", static_cast<double>(c.before.rtt_ns) * 1e-9},
                   {"samples", c.before.samples}}},
                 {"estimate_after",
                  {{"offset_s", c.after.offset_ns * 1e-9},
                   {"uncertainty_s", c.after.uncertainty_ns * 1e-9},
                   {"rtt_min_s", static_cast<double>(c.after.rtt_ns) * 1e-9},
                   {"samples", c.after.samples}}}});
  }
  return a;
}

nlohmann::json pairs_json(std::span<const PairLatency> pairs) {
  nlohmann::json a = nlohmann::json::array();
  for (const PairLatency& p : pairs) {
    a.push_back({{"src", p.src},
                 {"dst", p.dst},
                 {"messages", p.messages},
                 {"bytes", p.bytes},
                 {"one_way_s", latency_summary_json(p.one_way_s)},
                 {"uncertainty_s", p.bound_s}});
  }
  return a;
}

void print_clocks(std::ostream& out, std::span<const ClockReport> clocks,
                  const ReleaseReport& rel) {
  std::string same;
  for (size_t k = 1; k < clocks.size(); ++k) {
    const ClockReport& c = clocks[k];
    if (c.model.same_clock) {
      same += (same.empty() ? "" : ", ") + std::to_string(k);
      continue;
    }
    out << "# clock of rank " << k << " (" << c.host.hostname << "): offset to rank 0 "
        << signed_duration(c.model.offset_ns) << " +/- " << fixed(c.model.uncertainty_ns * 1e-3, 1)
        << " us (min round trip " << fixed(static_cast<double>(c.before.rtt_ns) * 1e-3, 1)
        << " us), drift " << fixed(c.model.drift * 1e6, 2) << " ppm"
        << (c.via >= 0 ? " (through rank " + std::to_string(c.via) + " on its kernel)" : "")
        << '\n';
  }
  if (!same.empty()) {
    double bound = 0;
    for (const ClockReport& c : clocks) {
      if (c.model.same_clock) bound = std::max(bound, c.model.uncertainty_ns);
    }
    out << "# clock: rank" << (same.find(',') == std::string::npos ? " " : "s ") << same
        << " run on rank 0's kernel: offsets through CLOCK_MONOTONIC, +/- "
        << fixed(bound * 1e-3, 2) << " us\n";
  }
  if (rel.ranks.size() > 1) {
    out << "# release: ";
    if (rel.mode == Release::instant) {
      out << "at an instant " << signed_duration(rel.lead_ns) << " ahead on rank 0's clock";
    } else {
      out << "by the bootstrap barrier";
    }
    out << "; ranks started within " << signed_duration(rel.skew_ns) << " +/- "
        << fixed(rel.skew_bound_ns * 1e-3, 1) << " us of each other (latest: rank "
        << rel.latest_rank << ")\n";
  }
}

void print_pairs(std::ostream& out, std::span<const PairLatency> pairs) {
  Table t({{"src", ""},
           {"dst", ""},
           {"messages", ""},
           {"bytes", ""},
           {"one-way_p50", "usec"},
           {"one-way_p99", "usec"},
           {"one-way_max", "usec"},
           {"+/-bound", "usec"}});
  for (const PairLatency& p : pairs) {
    t.add_row({std::to_string(p.src), std::to_string(p.dst), std::to_string(p.messages),
               format_size(p.bytes), fixed(p.one_way_s.p50 * 1e6, 1),
               fixed(p.one_way_s.p99 * 1e6, 1), fixed(p.one_way_s.max * 1e6, 1),
               fixed(p.bound_s * 1e6, 1)});
  }
  out << "\n# one-way latency per rank pair: sender's post to arrival at the receiver, on rank "
         "0's clock\n";
  t.print(out);
}

}  // namespace dlcnet
