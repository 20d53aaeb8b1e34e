#include "model/hpcc_fct.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "flows/fct.hpp"
#include "model/line_fields.hpp"

namespace dlcnet::model {
namespace {

// HPCC's third.cc: `portNumder[src][dst]++`, every (source, destination) pair's ports from 10000.
constexpr uint32_t kFirstSport = 10000;

}  // namespace

uint32_t hpcc_node_id(uint32_t ip) noexcept {
  return (ip >> 8) & 0xffff;
}
uint32_t FctRecord::src() const noexcept {
  return hpcc_node_id(sip);
}
uint32_t FctRecord::dst() const noexcept {
  return hpcc_node_id(dip);
}

uint64_t fct_ns(double s, size_t flow, const char* what) {
  if (!(s > 0)) return 0;
  if (!(s * 1e9 < 9.2e18)) {
    throw Error("fct.txt: flow " + std::to_string(flow) + ": its " + what + " (" +
                std::to_string(s) + " s) is past what fct.txt's nanoseconds hold");
  }
  return static_cast<uint64_t>(std::llround(s * 1e9));
}

double standalone_fct_s(uint64_t bytes, const Calibration& c) noexcept {
  return 2 * c.base_latency_s + c.overhead_for(bytes) + c.wire_bytes(bytes) / c.link_rate_Bps;
}

std::vector<FctRecord> fct_from_prediction(std::span<const HpccFlow> flows,
                                           const Prediction& prediction, const Calibration& c) {
  if (prediction.messages.size() != flows.size())
    throw Error("fct.txt: the prediction does not hold one message per flow");
  std::vector<FctRecord> out(flows.size());
  std::unordered_map<uint64_t, uint32_t> next_port;  // (src << 32) | dst
  std::vector<double> done(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) {
    const HpccFlow& f = flows[i];
    const MessageTimes& t = prediction.messages[i];
    done[i] = t.finish_s + c.base_latency_s;  // the last byte's acknowledgement is back
    auto [it, fresh] = next_port.try_emplace((uint64_t{f.src} << 32) | f.dst, kFirstSport);
    out[i] = FctRecord{hpcc_node_ip(f.src),
                       hpcc_node_ip(f.dst),
                       it->second++,
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

void write_fct_txt(std::ostream& out, std::span<const FctRecord> records) {
  for (const FctRecord& r : records) {
    out << fct_line(r.sip, r.dip, r.sport, r.dport, r.size, static_cast<double>(r.start_ns),
                    static_cast<double>(r.fct_ns), static_cast<double>(r.standalone_ns))
        << '\n';
  }
}

std::vector<FctRecord> read_fct_txt(std::istream& in, const std::string& file) {
  LineFields f(in, file);
  std::vector<FctRecord> out;
  while (f.next_line()) {
    FctRecord r;
    r.sip = f.hex32("sip");
    r.dip = f.hex32("dip");
    r.sport = f.whole32("sport");
    r.dport = f.whole32("dport");
    r.size = f.whole("size");
    r.start_ns = f.whole("start_ns");
    r.fct_ns = f.whole("fct_ns");
    r.standalone_ns = f.whole("standalone_fct_ns");
    r.line = f.line_number();
    out.push_back(r);
  }
  return out;
}

std::vector<FctRecord> read_fct_txt(const std::string& path) {
  return read_input(path, "the fct file", [&](std::istream& in) { return read_fct_txt(in, path); });
}

}  // namespace dlcnet::model
