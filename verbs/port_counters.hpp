// -W: a port's counters as the kernel shows them in sysfs (DEV/ports/N/counters, the IB port
// counters, and DEV/ports/N/hw_counters, the driver's: rxe's retransmissions, RNR NAKs, ...),
// read before and after a run and reported as differences.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlcnet::verbs {

inline constexpr const char* kSysfsInfiniband = "/sys/class/infiniband";

struct CounterSnapshot {
  std::string device;
  int port = 0;
  std::map<std::string, uint64_t> counters;     // ports/N/counters
  std::map<std::string, uint64_t> hw_counters;  // ports/N/hw_counters
  std::vector<std::string> unreadable;          // files that held no number
};

// Throws Error naming -W and the path when the port has neither folder.
CounterSnapshot read_port_counters(const std::string& device, int port,
                                   const std::string& root = kSysfsInfiniband);

// {"device", "port", "counters": {name: after - before}, "hw_counters": {...}, "unreadable",
// "note"}. A counter that went down (a reset, or a 32-bit counter that wrapped) reports null.
nlohmann::json counter_deltas_json(const CounterSnapshot& before, const CounterSnapshot& after);

// The non-zero differences, one "# name  delta" line each, for the console.
std::string counter_deltas_text(const nlohmann::json& deltas);

}  // namespace dlcnet::verbs
