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
// any depth). dlc-trace picks the Chakra reader on this.
bool is_chakra_input(std::span<const std::string> inputs);

struct EtFile {
  std::string path;
  int32_t rank = 0;
};

// The job's files, in rank order, ranks 0..N-1. Problems in `diag`: a name without a rank
// (`<name>.<rank>.et`), two files of one rank, files of several jobs (different names or
// folders), a rank missing between 0 and the highest; paths that do not exist.
std::vector<EtFile> find_chakra_files(std::span<const std::string> inputs, Diagnostics& diag);

}  // namespace dlcnet::trace::chakra
