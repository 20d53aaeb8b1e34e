// A Chakra job as dlcnet's native CSV, version 2 (docs/native-trace-format.md, "Version 2:
// any-rank jobs"): `# dlcnet-trace 2 ranks=N`, then one node a line (rank, id, type, peer, tag,
// bytes, collective, pg, start_ns, duration_ns, deps, data_deps, name). Read into the same
// chakra::Job as ET files, so that validate, stats and dlc-replay take it unchanged.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// The most ranks a version 2 file may declare (`ranks=N`): each costs memory before any line.
inline constexpr int32_t kNativeMaxRanks = 65536;

// Reads the files (each a version 2 file) into `job`: N ranks from the first line (every file
// must declare the same N), each rank's nodes from the one file that holds its lines, in line
// order (Node::line set, Node::index their position among the rank's nodes). A rank without
// lines has no nodes and the first file as its file. Never throws for what the files hold:
// every problem is in `diag`, naming the file, the line and the column; a bad line is dropped.
void read_native_job(std::span<const std::string> files, Job& job, Diagnostics& diag);

// Writes `job` as one version 2 file, ranks in order, each rank's nodes in order. Microseconds
// become nanoseconds (times 1000). Throws Error on a write error or a time past 2^64-1 ns.
void write_native_job(const Job& job, const std::string& path);

// Reading times back: nanoseconds to Chakra's microseconds, to the nearest (500 ns up).
constexpr uint64_t ns_to_us(uint64_t ns) noexcept {
  return ns / 1000 + (ns % 1000 >= 500 ? 1 : 0);
}

// `name` and `pg` as written in the CSV: ',' '%' '#' and bytes below 0x20 or 0x7F as %XX, and a
// space at either end (the reader trims fields) as %20.
std::string percent_encode(std::string_view s);
// The reverse; false on a '%' not followed by two hexadecimal digits.
bool percent_decode(std::string_view s, std::string& out);

}  // namespace dlcnet::trace::chakra
