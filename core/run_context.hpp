// The context block of every JSON report: what ran, where, when, with what. Transports add
// their own describe() under "transport".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace dlcnet {

inline constexpr int kReportSchemaVersion = 1;

// {"schema_version", "tool", "tool_version", "host", "date" (UTC ISO 8601), "argv",
//  "rdma_core_version", "ucx_version", "kernel", "cpus"}
nlohmann::json make_run_context(const std::string& tool, int argc, const char* const* argv);

// Writes `doc` to `path` atomically (temp file + rename) so a crash never leaves half a JSON.
// Throws Error naming the path.
void write_json_file(const std::string& path, const nlohmann::json& doc);

}  // namespace dlcnet
