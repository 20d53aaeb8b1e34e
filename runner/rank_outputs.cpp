#include "runner/rank_outputs.hpp"

#include "core/run_context.hpp"
#include "launch/rank_env.hpp"

namespace dlcnet {

RankOutputs::RankOutputs(const RankOutputPaths& paths, int rank, int world_size)
    : paths_(paths), world_size_(world_size) {
  if (rank == 0) {
    json_ = open_output("--json", paths.json);
    fct_ = open_output("--fct", paths.fct);
  }
  if (!paths.records.empty()) {
    records_ = std::make_unique<RecordWriter>(rank_path(paths.records, rank, world_size));
    records_->flush();  // the header at least, whatever happens next
  }
}

nlohmann::json RankOutputs::files_json() const {
  nlohmann::json records = nlohmann::json::array();
  for (int r = 0; r < world_size_ && !paths_.records.empty(); ++r) {
    records.push_back(rank_path(paths_.records, r, world_size_));
  }
  return {{"records", records},
          {"fct", paths_.fct.empty() ? nlohmann::json(nullptr) : nlohmann::json(paths_.fct)}};
}

}  // namespace dlcnet
