// Messages (flows/flow.hpp) as flows in the fct.txt layout of HPCC's ns-3 (also SimAI's and
// ASTRA-sim's ns-3 backends), so a run can be diffed flow by flow against a simulation:
//   sip dip sport dport size_bytes start_ns fct_ns standalone_fct_ns
// Addresses are HPCC's node addresses of the ranks (node i = 0x0b000001 + (i/256)<<16 +
// (i%256)<<8), printed as 8 hex digits; sport counts from 10000 per (src, dst) as HPCC assigns
// them, dport is 100 (the usual flow files' value).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include "flows/flow.hpp"

namespace dlcnet {

uint32_t hpcc_node_ip(uint32_t node) noexcept;

struct FctOptions {
  double origin_ns = 0;  // rank 0's start of the run: start_ns counts from here
  // Idle-network model of standalone_fct = base + size / rate. base is the fastest message of
  // the (src, dst) pair in this run; rate is link_bps / 8 when given, else the best rate
  // any message of 64 KiB or more of the pair reached above that base (no size term if none).
  double link_bps = 0;
};

// One line (without newline) in HPCC's format. Negative values (clock error larger than the
// latency, see the bound) are written as 0.
std::string fct_line(uint32_t src_ip, uint32_t dst_ip, uint32_t sport, uint32_t dport,
                     uint64_t bytes, double start_ns, double fct_ns, double standalone_ns);

// Writes every flow, ordered by start time.
void write_fct(std::ostream& out, std::span<const Flow> flows, const FctOptions& options);

}  // namespace dlcnet
