// Printers of a Chakra job's statistics: console tables and JSON (bytes and microseconds as
// the trace gives them).
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "trace/chakra/chakra_stats.hpp"

namespace dlcnet::trace::chakra {

void print_stats(std::ostream& out, const JobStats& stats);

// {"format": "chakra", "world", "options", "ranks": [...], "collectives": [...]}; the caller
// adds the "context" block.
nlohmann::json stats_to_json(const JobStats& stats);

}  // namespace dlcnet::trace::chakra
