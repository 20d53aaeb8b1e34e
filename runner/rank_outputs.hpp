// The files one rank of an N-rank tool writes (dlc-replay, dlc-bench fanin and ring), opened as
// the rank starts, after the join and before anything is measured (core/output_file.hpp): an
// unwritable path fails the job before it runs, every rank naming the rank and the option.
// --json and --fct are rank 0's; --records every rank's (rank_path: %r or .rank<R>).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/output_file.hpp"
#include "core/record.hpp"

namespace dlcnet {

struct RankOutputPaths {
  std::string json, records, fct;  // empty: not written
};

class RankOutputs {
 public:
  RankOutputs(const RankOutputPaths& paths, int rank, int world_size);

  OutputFile* json() noexcept { return json_.get(); }
  OutputFile* fct() noexcept { return fct_.get(); }
  RecordWriter* records() noexcept { return records_.get(); }

  // The report's "files": {"records": every rank's records file, "fct": the fct file or null}.
  nlohmann::json files_json() const;

 private:
  RankOutputPaths paths_;
  int world_size_;
  std::unique_ptr<OutputFile> json_, fct_;
  std::unique_ptr<RecordWriter> records_;
};

}  // namespace dlcnet
