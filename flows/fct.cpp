#include "flows/fct.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace dlcnet {
namespace {

uint64_t non_negative(double ns) {
  return ns <= 0 ? 0 : static_cast<uint64_t>(std::llround(ns));
}

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

}  // namespace dlcnet
