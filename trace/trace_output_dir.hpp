// The job directory dlc-trace synth and convert write: never mixed with an older job's files.
#pragma once

#include <string>

namespace dlcnet::trace {

// Refuses a directory that holds anything unless `overwrite`; then removes the node
// folders (worker<N>, server<N>, scheduler), synth.json and the Chakra files
// (<name>.<rank>.et) a previous run left, nothing else: a SketchDLC job and a Chakra job never
// share a directory (a *.et file makes the directory a Chakra job for every tool).
// A path that does not exist is left for the writer to create. Throws Error naming the path.
void prepare_output_dir(const std::string& dir, bool overwrite);

}  // namespace dlcnet::trace
