#include "model/hpcc_prediction.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/error.hpp"

namespace dlcnet::model {

std::vector<Message> messages_from_flows(std::span<const HpccFlow> flows) {
  std::vector<Message> m(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) {
    m[i].id = i;
    m[i].src = flows[i].src;
    m[i].dst = flows[i].dst;
    m[i].bytes = flows[i].size;
    m[i].start_s = flows[i].start_s;
  }
  return m;
}

double standalone_fct_s(uint64_t bytes, const Calibration& c) noexcept {
  return 2 * c.base_latency_s + c.overhead_for(bytes) + c.wire_bytes(bytes) / c.link_rate_Bps;
}

std::vector<FctRecord> fct_from_prediction(std::span<const HpccFlow> flows,
                                           const Prediction& prediction, const Calibration& c) {
  if (prediction.messages.size() != flows.size())
    throw Error("fct.txt: the prediction does not hold one message per flow");
  std::vector<FctRecord> out(flows.size());
  std::unordered_map<uint64_t, uint64_t> pair_flows;  // (src << 32) | dst: flows so far
  std::vector<double> done(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) {
    const HpccFlow& f = flows[i];
    const MessageTimes& t = prediction.messages[i];
    done[i] = t.finish_s + c.base_latency_s;  // the last byte's acknowledgement is back
    out[i] = FctRecord{hpcc_node_ip(f.src),
                       hpcc_node_ip(f.dst),
                       hpcc_sport(pair_flows[(uint64_t{f.src} << 32) | f.dst]++),
                       f.dport,
                       f.size,
                       fct_ns(t.start_s, i, "start"),
                       fct_ns(done[i] - t.start_s, i, "fct"),
                       fct_ns(standalone_fct_s(f.size, c), i, "standalone fct")};
  }
  std::vector<size_t> order(flows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return done[a] < done[b]; });
  std::vector<FctRecord> sorted;
  sorted.reserve(out.size());
  for (size_t i : order) sorted.push_back(out[i]);
  return sorted;
}

}  // namespace dlcnet::model
