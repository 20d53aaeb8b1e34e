// Writing a job in the SketchDLC capture format, laid out as a real capture leaves it once the
// per-node files are gathered in one directory:
//   <dir>/worker<i>/trace_record.txt     <dir>/worker<i>/trace_sch_record.txt
//   <dir>/server<j>/trace_record.txt     <dir>/server<j>/trace_sch_record.txt
//   <dir>/scheduler/trace_sch_record.txt
// (trace_sch_record.txt only for nodes with scheduler exchanges). What the model does not hold
// is regenerated as documented in docs/trace-model.md ("Writing SketchDLC"): IDs count from 0,
// Dep_PP is -15 for the initialisation, 2i+1 for pushes and 2i+2 for pulls of iteration i, and
// 0 for set-up rows.
#pragma once

#include <string>

#include "trace/trace_model.hpp"

namespace dlcnet::trace {

// Creates `dir` (and the node folders) if needed. Throws Error on any I/O failure.
void write_sketch_job(const Job& job, const std::string& dir);

// One node's trace_record.txt / trace_sch_record.txt.
void write_sketch_data_file(const Job& job, const Node& node, const std::string& path);
void write_sketch_sch_file(const Job& job, const Node& node, const std::string& path);

}  // namespace dlcnet::trace
