// The header block and column line of a SketchDLC data file (docs: trace-and-output-formats
// section 1). Kept apart from the row parser, which is the hot path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trace/trace_model.hpp"

namespace dlcnet::trace {

inline constexpr std::string_view kColumnLine =
    "ID src dst length Dep_PP Operation OP_ID dep_Type dTime time_sec time_usec IDdep";

struct SketchHeader {
  int32_t num_workers = -1;
  int32_t num_servers = -1;
  std::string hostname;
  std::optional<Role> role;  // from worker_hostname / server_hostname
};

// A line made only of '=' (at least three), as the capture writes around the header block.
bool is_rule_line(std::string_view line) noexcept;
// Picks num_workers, num_servers and the hostname out of one "==" line of the header block.
void parse_header_line(std::string_view line, SketchHeader& header);
// True when the tokens of `line` are exactly the twelve column names of kColumnLine.
bool is_column_line(std::string_view line) noexcept;
// True when the line's first token is "ID" (a column line of some kind).
bool starts_with_id(std::string_view line) noexcept;

}  // namespace dlcnet::trace
