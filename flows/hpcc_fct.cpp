#include "flows/hpcc_fct.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "flows/line_fields.hpp"

namespace dlcnet {
namespace {

uint64_t non_negative(double ns) {
  return ns <= 0 ? 0 : static_cast<uint64_t>(std::llround(ns));
}

}  // namespace

uint32_t hpcc_node_ip(uint32_t node) noexcept {
  return 0x0b000001u + ((node / 256) * 0x00010000u) + ((node % 256) * 0x00000100u);
}
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

std::string fct_line(uint32_t src_ip, uint32_t dst_ip, uint32_t sport, uint32_t dport,
                     uint64_t bytes, double start_ns, double fct_ns, double standalone_ns) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%08x %08x %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
                src_ip, dst_ip, sport, dport, bytes, non_negative(start_ns), non_negative(fct_ns),
                non_negative(standalone_ns));
  return buf;
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

}  // namespace dlcnet
