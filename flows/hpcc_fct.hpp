// HPCC's flow completion output (`fct.txt`, FCT_OUTPUT_FILE of HPCC's ns-3, also SimAI's and
// ASTRA-sim's ns-3 backends), one line per flow, written when the sender's flow completes:
//   sip dip sport dport size start_ns fct_ns standalone_fct_ns
// sip/dip: the hosts' addresses in hex (node i = 0x0b000001 + (i/256)<<16 + (i%256)<<8, node id
// = (ip >> 8) & 0xffff); sport: the (source, destination) pair's ports from 10000 in the order
// its flows start; dport 100 (the usual flow files' value); start: absolute, in ns; fct: from
// start to the sender's completion (the last byte acknowledged); standalone_fct: the same flow
// alone on an idle network, so fct / standalone_fct >= 1 (docs/model.md). Written by the model's
// predictions (model/hpcc_prediction.hpp) and the runs' measured fct (model/measured_fct.hpp).
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace dlcnet {

struct FctRecord {
  uint32_t sip = 0, dip = 0, sport = 0, dport = 0;
  uint64_t size = 0, start_ns = 0, fct_ns = 0, standalone_ns = 0;
  size_t line = 0;  // read_fct_txt: the line it came from (for messages); 0 otherwise

  uint32_t src() const noexcept;  // node ids, as HPCC derives them
  uint32_t dst() const noexcept;
};

uint32_t hpcc_node_ip(uint32_t node) noexcept;
uint32_t hpcc_node_id(uint32_t ip) noexcept;

// HPCC's third.cc: `uint16_t port = portNumder[src][dst]++`, every (source, destination) pair's
// ports from 10000, in 16 bits: the pair's k-th flow (from 0) has port (10000 + k) mod 65536
// (after 65535 comes 0), so a pair with more than 65536 flows reuses ports (a join tells them
// apart by their starts).
inline constexpr uint32_t kFirstSport = 10000;
inline uint32_t hpcc_sport(uint64_t k) noexcept {
  return static_cast<uint32_t>((kFirstSport + k) & 0xffffu);
}

// Seconds to fct.txt's whole nanoseconds (0 for none); a time past what 63 bits hold (a
// calibration's rate of a few bytes a second, a huge flow) throws Error naming flow `flow`
// (its position) and `what` the time is, instead of wrapping.
uint64_t fct_ns(double s, size_t flow, const char* what);

// One line (without newline) in HPCC's format. Negative values (clock error larger than the
// latency, see the bound) are written as 0.
std::string fct_line(uint32_t src_ip, uint32_t dst_ip, uint32_t sport, uint32_t dport,
                     uint64_t bytes, double start_ns, double fct_ns, double standalone_ns);

void write_fct_txt(std::ostream& out, std::span<const FctRecord> records);

// Reads the first 8 columns of every line (forks append more: ignored). Throws Error naming
// `file`, the line and the field on anything malformed.
std::vector<FctRecord> read_fct_txt(std::istream& in, const std::string& file);
std::vector<FctRecord> read_fct_txt(const std::string& path);

}  // namespace dlcnet
