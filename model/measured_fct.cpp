#include "model/measured_fct.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "flows/hpcc_fct.hpp"

namespace dlcnet::model {
namespace {

uint64_t round_ns(double ns) {
  return ns <= 0 ? 0 : static_cast<uint64_t>(std::llround(ns));
}

}  // namespace

std::vector<FctRecord> measured_fct(const FlowMap& map, const model::Calibration& c) {
  std::vector<FctRecord> out;
  out.reserve(map.flows.size());
  for (const MappedFlow& f : map.flows) {
    FctRecord r;
    r.sip = hpcc_node_ip(f.src);
    r.dip = hpcc_node_ip(f.dst);
    r.sport = f.sport;
    r.dport = 100;
    r.size = f.size;
    r.start_ns = f.start_ns;
    r.fct_ns = round_ns(f.latency_ns + c.base_latency_s * 1e9);
    r.standalone_ns = round_ns(model::standalone_fct_s(f.size, c) * 1e9);
    out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(), [](const FctRecord& a, const FctRecord& b) {
    return a.start_ns + a.fct_ns < b.start_ns + b.fct_ns;
  });
  return out;
}

}  // namespace dlcnet::model
