// HPCC's flow completion output (`fct.txt`, FCT_OUTPUT_FILE), one line per flow, written when
// the sender's flow completes:
//   sip dip sport dport size start_ns fct_ns standalone_fct_ns
// sip/dip: the hosts' addresses in hex (node id = (ip >> 8) & 0xffff); sport: the
// (source, destination) pair's ports from 10000 in the order its flows start; start: absolute, in
// ns; fct: from start to the sender's completion (the last byte acknowledged); standalone_fct: the
// same flow alone on an idle network, so fct / standalone_fct >= 1 (docs/model.md).
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "model/calibration.hpp"
#include "model/hpcc_flow.hpp"
#include "model/message.hpp"

namespace dlcnet::model {

struct FctRecord {
  uint32_t sip = 0, dip = 0, sport = 0, dport = 0;
  uint64_t size = 0, start_ns = 0, fct_ns = 0, standalone_ns = 0;
  size_t line = 0;  // read_fct_txt: the line it came from (for messages); 0 otherwise

  uint32_t src() const noexcept;  // node ids, as HPCC derives them
  uint32_t dst() const noexcept;
};

uint32_t hpcc_node_id(uint32_t ip) noexcept;

// The model's idle-network time of a message, HPCC's way: base round trip (two base one-way
// latencies, plus the per-message overhead) plus its header-inclusive bytes over the link rate.
double standalone_fct_s(uint64_t bytes, const Calibration& c) noexcept;

// Seconds to fct.txt's whole nanoseconds (0 for none); a time past what 63 bits hold (a
// calibration's rate of a few bytes a second, a huge flow) throws Error naming flow `flow`
// (its position) and `what` the time is, instead of wrapping.
uint64_t fct_ns(double s, size_t flow, const char* what);

// The prediction of `flows` (predict() on messages_from_flows(flows)) as HPCC would write it:
// fct = arrival of the last byte + the acknowledgement's latency - start; lines in order of
// sender completion (ties: flow order).
std::vector<FctRecord> fct_from_prediction(std::span<const HpccFlow> flows,
                                           const Prediction& prediction, const Calibration& c);

void write_fct_txt(std::ostream& out, std::span<const FctRecord> records);

// Reads the first 8 columns of every line (forks append more: ignored). Throws Error naming
// `file`, the line and the field on anything malformed.
std::vector<FctRecord> read_fct_txt(std::istream& in, const std::string& file);
std::vector<FctRecord> read_fct_txt(const std::string& path);

}  // namespace dlcnet::model
