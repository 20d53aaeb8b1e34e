// The context block of every JSON report: what ran, where, when, with what. Transports add
// their own describe() under "transport"; tools that link a transport library add its version
// (launch/transport_select.hpp: add_transport_versions, "ucx_version").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/output_file.hpp"

namespace dlcnet {

// 2: one latency-summary shape (core/stats_json.hpp) in every tool, "clock" an object,
// "ucx_version" only from tools that link UCX.
inline constexpr int kReportSchemaVersion = 2;

// {"schema_version", "tool", "tool_version", "host", "date" (UTC ISO 8601), "argv",
//  "libibverbs_version", "kernel", "cpus",
//  "clock": {"source": clock_description(), "times": what the reports' *_ns values are},
//  "tcp_stack": this process's (core/tcp_stack.hpp),
//  "star": the namespace star it runs in, only when it runs in one (core/star_description.hpp)}
nlohmann::json make_run_context(const std::string& tool, int argc, const char* const* argv);

// Writes `doc` to `out` and commits it (core/output_file.hpp: a regular file is replaced
// atomically, so a crash never leaves half a JSON; a FIFO or device is written through).
// Throws Error naming the option and the path.
void write_json_file(OutputFile& out, const nlohmann::json& doc);

}  // namespace dlcnet
