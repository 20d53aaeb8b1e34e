// The JSON report of a replay (schema in docs/replay.md): seconds and bytes throughout. The
// caller adds the "context" block (core/run_context.hpp) and the file names. The top-level
// "schema_version" is the context's, kReportSchemaVersion.
#pragma once

#include <nlohmann/json.hpp>

#include "replay/replay_analysis.hpp"

namespace dlcnet::replay {

nlohmann::json report_json(const ReplayReport& report, const trace::Job& job, const RankMap& map);

}  // namespace dlcnet::replay
