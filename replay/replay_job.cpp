#include "replay/replay_job.hpp"

#include "trace/chakra/chakra_files.hpp"

namespace dlcnet::replay {

std::unique_ptr<ReplayJob> open_replay_job(const JobSource& source) {
  return trace::chakra::is_chakra_input(source.inputs) ? open_chakra_job(source)
                                                       : open_sketch_job(source);
}

}  // namespace dlcnet::replay
