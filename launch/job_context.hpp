// The report context of an N-rank pattern's JSON (dlc-bench fanin and ring): the run's own
// context (core/run_context.hpp) with the transport and its selection, rank 0's CPU binding,
// the world, where the ranks came from and how waiting ranks idle.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/idle.hpp"
#include "core/transport.hpp"
#include "launch/cpu_binding.hpp"
#include "launch/transport_select.hpp"

namespace dlcnet {

nlohmann::json job_run_context(const std::string& tool, int argc, const char* const* argv,
                               const Transport& t, const TransportChoice& choice,
                               const CpuBinding& cpu, int world, const std::string& rank_source,
                               Idle idle);

}  // namespace dlcnet
