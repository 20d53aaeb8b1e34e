// Joins a flow map (what was measured, flows/flow_map.hpp) with a simulator's or the model's
// fct.txt for the flow.txt exported beside it: an fct line names its flow by (sip, dip, sport),
// the pair's sport counting from 10000 in flow.txt's order, as HPCC numbers them. Both sides
// are put in HPCC's meaning of fct, from the start to the sender's completion (the last byte
// acknowledged): the measured one is the measured one-way latency plus `ack_ns`, the one-way
// latency of the acknowledgement (the calibration's base latency; docs/compare.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compare/error_stats.hpp"
#include "flows/flow_map.hpp"
#include "flows/hpcc_fct.hpp"

namespace dlcnet::compare {

struct Join {
  std::vector<Matched> matched;        // in flow.txt order
  std::vector<uint32_t> unpredicted;   // flows of the map with no fct line
  std::vector<uint32_t> unmeasurable;  // flows whose measured latency is not positive
};

// Throws Error naming `fct_file` and the line of an fct line that names no flow of the map
// (`map_file`, named too), a flow twice, or a flow whose size or start differs (the fct.txt is
// not of this flow.txt).
// `free_starts`: the prediction chose its own start times (a dependency-driven prediction,
// `dlc-compare predict-job`): starts are not checked, and a group's predicted span runs from its
// first predicted start.
Join join_fct(const FlowMap& map, const std::string& map_file, std::span<const FctRecord> fct,
              const std::string& fct_file, double ack_ns, bool free_starts = false);

}  // namespace dlcnet::compare
