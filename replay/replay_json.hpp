// The JSON report of a replay (schema in docs/replay.md): seconds and bytes throughout. The
// caller adds the "context" block (core/run_context.hpp) and the file names. The top-level
// "schema_version" is the context's, kReportSchemaVersion.
#pragma once

#include <nlohmann/json.hpp>

#include "replay/replay_analysis.hpp"
#include "replay/replay_report.hpp"

namespace dlcnet::replay {

nlohmann::json report_json(const ReplayReport& report, const trace::Job& job, const RankMap& map);

// The blocks every replay's JSON has: "replay", "ranks" (each named "node" by `name`),
// "scheduling_error_s", "order_hold_s", "latency", "messages", "ok", "verdict", "fidelity".
nlohmann::json report_json_common(const ReplayReport& report, const RankNamer& name);

}  // namespace dlcnet::replay
