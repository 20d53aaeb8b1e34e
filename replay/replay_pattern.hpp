// dlc-replay as a pattern on the runner (runner/runner.hpp): every rank loads the job, agrees
// on it and on the part size, connects to the ranks it exchanges messages with, replays its
// node's records, and sends its report to rank 0, which analyses the whole job.
#pragma once

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "replay/replay_job.hpp"
#include "replay/replay_options.hpp"
#include "runner/nrank_options.hpp"
#include "runner/pattern.hpp"

namespace dlcnet::replay {

// What is the replay's own on the command line (the rest: runner::NRankOptions).
struct Options {
  std::vector<std::string> inputs;  // job directory or files
  PlanOptions plan;                 // part_bytes is agreed between the ranks at run time
  std::string map_spec;
  trace::chakra::CollectiveOptions collectives;  // a Chakra job's --root and --coll-size
  uint32_t recv_ahead = 64;
  uint64_t part_limit = 0;  // split messages above this (0: the transport's maximum)
  Release release = Release::instant;
  int fault_rank = -1;  // test hook: this rank kills or stops itself after fault_after completions
  int64_t fault_after = -1;
  int fault_signal = SIGKILL;  // ...by raising this signal (SIGSTOP: frozen)
};

// How `o` names the job to read (open_replay_job).
JobSource job_source(const Options& o);

// Returns the exit code: 0 when the replay is complete and correct, 1 when rank 0 found it
// wrong (on every rank). Throws Error for failures.
int run_rank(const Options& o, const runner::NRankOptions& n, int argc, const char* const* argv);

}  // namespace dlcnet::replay
