// One rank of `dlc-bench ring` from start to end on the job layer (launch/job.hpp): join,
// agree on the spec, connect (ring neighbours, or everyone for all-to-all, and rank 0 to
// everyone for the clocks), align clocks, every size's iterations (each size's times to rank 0
// as it finishes, so its row prints at once), clocks again, records, report.
#pragma once

#include <string>

#include "core/transport.hpp"
#include "launch/job.hpp"
#include "launch/rank_env.hpp"
#include "patterns/ring/ring_spec.hpp"

namespace dlcnet::ring {

struct Options {
  RingSpec spec;
  std::string transport_kind = "auto";
  TransportOptions transport;
  RankEnv env;
  std::string json_path, records_path;
  std::string export_flows;  // HPCC flow.txt here and its flow map beside it (rank 0)
  std::string star_links;    // --star-links PREFIX: rank 0 reads h<i> in PREFIX-h<i> (netem)
  uint32_t clock_samples = 32;
  IdlePolicy idle = IdlePolicy::automatic;
  bool quiet = false;
  std::string cpu = "auto";  // --cpu (launch/rank_cpu.hpp)
};

// Returns the exit code: 0, or 1 on every rank when any element was wrong (rank 0's verdict);
// throws Error on failure.
int run_rank(const Options& o, int argc, const char* const* argv);

}  // namespace dlcnet::ring
