// dlcnet's native trace format: one CSV file, one record a line, columns by name, so that
// users of other frameworks can write a trace without mimicking ps-lite
// (docs/native-trace-format.md is the reference).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_draft.hpp"
#include "trace/trace_model.hpp"

namespace dlcnet::trace {

inline constexpr std::string_view kNativeMagic = "# dlcnet-trace 1";

// True when the file's first line starts with kNativeMagic (false if unreadable).
bool is_native_file(const std::string& path);

// Reads a native file into one draft per node it holds (dependencies resolved, opnums derived
// when absent). Returns false when the file is rejected outright.
bool read_native_file(const std::string& path, std::vector<NodeDraft>& drafts, Diagnostics& diag);

// Writes the present nodes' records (not the scheduler exchanges) as a native file.
void write_native(const Job& job, const std::string& path);

}  // namespace dlcnet::trace
