// dlc-trace convert --to chakra: a SketchDLC, native or synthetic job (through the replay's
// plan, replay/chakra_from_dlc.hpp) or a Chakra job (node for node) written as Chakra ET files,
// one <name>.<rank>.et per rank in the output directory, <name> the directory's own name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlcnet::trace::cli {

struct ChakraConvertOptions {
  std::vector<std::string> inputs;
  std::string out;  // the directory
  bool force = false;
  bool overwrite = false;
  uint32_t iterations = 0;  // DLC jobs: training iterations (0: the trace's)
  double time_scale = 1.0;  // DLC jobs: multiplies the think times
};

int run_convert_to_chakra(const ChakraConvertOptions& o);

}  // namespace dlcnet::trace::cli
