#include "flows/fct.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

namespace dlcnet {
namespace {

constexpr uint64_t kRateEstimateMinBytes = 64 * 1024;
constexpr uint32_t kFirstSport = 10000;
constexpr uint32_t kDport = 100;

uint64_t non_negative(double ns) {
  return ns <= 0 ? 0 : static_cast<uint64_t>(std::llround(ns));
}

struct PairModel {
  double base_ns = 0;
  double bytes_per_ns = 0;  // 0: no size term
};

}  // namespace

uint32_t hpcc_node_ip(uint32_t node) noexcept {
  return 0x0b000001u + ((node / 256) * 0x00010000u) + ((node % 256) * 0x00000100u);
}

std::string fct_line(uint32_t src_ip, uint32_t dst_ip, uint32_t sport, uint32_t dport,
                     uint64_t bytes, double start_ns, double fct_ns, double standalone_ns) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%08x %08x %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
                src_ip, dst_ip, sport, dport, bytes, non_negative(start_ns), non_negative(fct_ns),
                non_negative(standalone_ns));
  return buf;
}

void write_fct(std::ostream& out, std::span<const Flow> flows, const FctOptions& options) {
  std::map<std::pair<int32_t, int32_t>, PairModel> model;
  for (const Flow& f : flows) {
    auto [it, fresh] = model.try_emplace({f.src, f.dst}, PairModel{f.fct_ns, 0});
    if (!fresh) it->second.base_ns = std::min(it->second.base_ns, f.fct_ns);
  }
  for (const Flow& f : flows) {
    PairModel& m = model[{f.src, f.dst}];
    if (options.link_bps > 0) {
      m.bytes_per_ns = options.link_bps / 8e9;
    } else if (f.bytes >= kRateEstimateMinBytes && f.fct_ns > m.base_ns) {
      m.bytes_per_ns =
          std::max(m.bytes_per_ns, static_cast<double>(f.bytes) / (f.fct_ns - m.base_ns));
    }
  }
  std::vector<const Flow*> order;
  order.reserve(flows.size());
  for (const Flow& f : flows) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(),
                   [](const Flow* a, const Flow* b) { return a->start_ns < b->start_ns; });
  std::map<std::pair<int32_t, int32_t>, uint32_t> sport;
  for (const Flow* f : order) {
    const PairModel& m = model[{f->src, f->dst}];
    const double standalone =
        m.base_ns + (m.bytes_per_ns > 0 ? static_cast<double>(f->bytes) / m.bytes_per_ns : 0);
    auto [it, fresh] = sport.try_emplace({f->src, f->dst}, kFirstSport);
    const uint32_t port = it->second++;
    out << fct_line(hpcc_node_ip(static_cast<uint32_t>(f->src)),
                    hpcc_node_ip(static_cast<uint32_t>(f->dst)), port, kDport, f->bytes,
                    f->start_ns - options.origin_ns, f->fct_ns, standalone)
        << '\n';
  }
}

}  // namespace dlcnet
