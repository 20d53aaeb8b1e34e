// Finding a Chakra job's files: `<name>.<rank>.et`, one per rank, in the directory (searched
// recursively) or among the files the user names.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// True when the inputs are a Chakra job: a file named *.et, or a directory holding one (at
// any depth), or a native version 2 job (below). dlc-trace picks the Chakra reader on this.
bool is_chakra_input(std::span<const std::string> inputs);

// True when the inputs hold a native CSV file of version 2 (trace/chakra/chakra_native.hpp): a
// regular file named whose first line is '# dlcnet-trace 2', or a *.csv at any depth of a
// directory named. The job is then read from those files, not from .et files.
bool is_native_job_input(std::span<const std::string> inputs);

// A native job's files: every file named, and every native *.csv (of any version: a version 1
// file is refused by the reader) at any depth of a directory named, sorted. A *.et among them
// and paths that do not exist are problems in `diag`.
std::vector<std::string> find_native_job_files(std::span<const std::string> inputs,
                                               Diagnostics& diag);

struct EtFile {
  std::string path;
  int32_t rank = 0;
};

// The job's files, in rank order, ranks 0..N-1. Problems in `diag`: a name without a rank
// (`<name>.<rank>.et`), two files of one rank, files of several jobs (different names or
// folders), a rank missing between 0 and the highest; paths that do not exist.
std::vector<EtFile> find_chakra_files(std::span<const std::string> inputs, Diagnostics& diag);

}  // namespace dlcnet::trace::chakra
