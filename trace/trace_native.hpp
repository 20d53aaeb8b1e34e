// dlcnet's native trace format: one CSV file, one record a line, columns by name, so that
// users of other frameworks can write a trace without mimicking ps-lite
// (docs/native-trace-format.md is the reference).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_draft.hpp"
#include "trace/trace_model.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {

// The first line: "# dlcnet-trace <version> workers=W servers=S". Files of every version start
// with kNativePrefix, so a newer file is told apart from "not a trace" and named as such.
inline constexpr std::string_view kNativePrefix = "# dlcnet-trace ";
inline constexpr int kNativeVersion = 1;
inline constexpr std::string_view kNativeMagic = "# dlcnet-trace 1";
// Version 2: any rank to any rank, read into a Chakra job (trace/chakra/chakra_native.hpp).
inline constexpr int kNativeAnyRankVersion = 2;

// True when `head` (a file's first bytes) starts with kNativePrefix, after a byte-order mark
// if there is one.
bool looks_native(std::string_view head);

// True when the regular file's first bytes look native (false if unreadable). Do not call it on
// a pipe or FIFO: it opens the file for a look of its own (discover_job_files does not).
bool is_native_file(const std::string& path);

// The version on a native file's first line: 0 when the file is not a regular file, cannot be
// read or does not start with kNativePrefix and a version (it does not consume a pipe).
int native_file_version(const std::string& path);

// Reads a native file into one draft per node it holds (dependencies resolved, opnums derived
// when absent). Returns false when the file is rejected outright. `in`: the file already open
// (a pipe whose first bytes were peeked), else it is opened from `path`.
bool read_native_file(const std::string& path, std::vector<NodeDraft>& drafts, Diagnostics& diag,
                      LineReader* in = nullptr);

// Writes the present nodes' records (not the scheduler exchanges) as a native file.
void write_native(const Job& job, const std::string& path);

}  // namespace dlcnet::trace
