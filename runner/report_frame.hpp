// The frame of an N-rank tool's JSON (runner/runner.hpp): its context (core/run_context.hpp with
// the transport and its selection, rank 0's CPU binding, the world, where the ranks came from
// and how waiting ranks idle), and the frame rank 0 writes when the job failed mid-run.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/idle.hpp"
#include "core/transport.hpp"
#include "launch/cpu_binding.hpp"
#include "launch/job.hpp"
#include "launch/transport_select.hpp"
#include "runner/rank_outputs.hpp"

namespace dlcnet {

nlohmann::json job_run_context(const std::string& tool, int argc, const char* const* argv,
                               const Transport& t, const TransportChoice& choice,
                               const CpuBinding& cpu, int world, const std::string& rank_source,
                               Idle idle);

// {"complete": false, "error": cause, "context", "phases_s", "setup", "files"}: the tool adds
// what it completed before the failure.
nlohmann::json incomplete_report(const std::string& cause, nlohmann::json context, const Job& job,
                                 const RankOutputs& out);

}  // namespace dlcnet
