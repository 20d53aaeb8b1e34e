#include "compare/named_fct.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "model/hpcc_prediction.hpp"

namespace dlcnet::compare {
NamedFct name_prediction(const FlowMap& like, std::span<const model::Message> messages,
                         std::span<const int32_t> key, std::span<const int32_t> opnum,
                         const model::Prediction& prediction, double latency_s,
                         const model::Calibration& c) {
  using Key = std::tuple<uint32_t, uint32_t, int32_t, int32_t>;
  std::map<Key, const MappedFlow*> by_name;
  for (const MappedFlow& f : like.flows) by_name[{f.src, f.dst, f.key, f.opnum}] = &f;
  NamedFct named;
  const std::vector<model::MessageTimes>& times = prediction.messages;
  named.origin_s = times.empty() ? 0 : times[0].start_s;
  for (const model::MessageTimes& t : times) named.origin_s = std::min(named.origin_s, t.start_s);
  for (size_t i = 0; i < messages.size(); ++i) {
    const model::Message& m = messages[i];
    const auto it = by_name.find({m.src, m.dst, key[i], opnum[i]});
    if (it == by_name.end()) {
      ++named.unnamed;
      continue;
    }
    const model::MessageTimes& t = times[i];
    FctRecord r;
    r.sip = hpcc_node_ip(m.src);
    r.dip = hpcc_node_ip(m.dst);
    r.sport = it->second->sport;
    r.dport = 100;
    r.size = m.bytes;
    r.start_ns = fct_ns(t.start_s - named.origin_s, i, "start");
    r.fct_ns = fct_ns(t.finish_s + latency_s - t.start_s, i, "fct");
    r.standalone_ns = fct_ns(model::standalone_fct_s(m.bytes, c), i, "standalone fct");
    named.records.push_back(r);
  }
  std::stable_sort(named.records.begin(), named.records.end(),
                   [](const FctRecord& a, const FctRecord& b) {
                     return a.start_ns + a.fct_ns < b.start_ns + b.fct_ns;
                   });
  return named;
}

}  // namespace dlcnet::compare
