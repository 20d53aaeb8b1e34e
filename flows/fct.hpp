// The fct.txt line of HPCC's ns-3 (also SimAI's and ASTRA-sim's ns-3 backends), shared by the
// model's predictions (model/hpcc_fct.hpp) and the runs' measured fct (compare/measured_fct.hpp):
//   sip dip sport dport size_bytes start_ns fct_ns standalone_fct_ns
// Addresses are HPCC's node addresses of the ranks (node i = 0x0b000001 + (i/256)<<16 +
// (i%256)<<8), printed as 8 hex digits; sport counts from 10000 per (src, dst) as HPCC assigns
// them, dport is 100 (the usual flow files' value).
#pragma once

#include <cstdint>
#include <string>

namespace dlcnet {

uint32_t hpcc_node_ip(uint32_t node) noexcept;

// One line (without newline) in HPCC's format. Negative values (clock error larger than the
// latency, see the bound) are written as 0.
std::string fct_line(uint32_t src_ip, uint32_t dst_ip, uint32_t sport, uint32_t dport,
                     uint64_t bytes, double start_ns, double fct_ns, double standalone_ns);

}  // namespace dlcnet
