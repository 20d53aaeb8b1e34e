// The measured queue of a fan-in: `dlc-bench fanin --qdisc DEV --json F` samples the root
// qdisc of the bottleneck (fabric/qdisc_sampler.hpp) and writes the series as column arrays,
// `qdisc.series.t_s` and `.backlog_bytes`, on rank 0's clock (the clock of every time in the
// report); its rounds (`iterations[]`: kind, iteration, first_post_s, last_arrival_s) on the
// same clock; and `flow_origin_s`, the first post of any message: time zero of --export-flows'
// flow.txt and of --fct.
#pragma once

#include <optional>

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "compare/queue_series.hpp"
#include "core/input_file.hpp"

namespace dlcnet::compare {

struct QueueRound {
  std::string kind;  // "solo", "warmup", "incast"
  int64_t iteration = 0;
  double first_post_s = 0, last_arrival_s = 0;  // rank 0's clock
};

struct FaninQueue {
  QueueSeries series;  // step: each sample holds until the next
  std::vector<QueueRound> rounds;
  // The time zero of flow.txt on the series' clock, and where it came from: "flow_origin_s"
  // (the report says it), "first round" (an older report: the first post of its first round),
  // "" (neither).
  double origin_s = 0;
  std::string origin_from;
  // The senders' initial TCP window, from the report's context.tcp_stacks: true when every
  // route of every rank but rank 0 leaves initcwnd unset (the kernel's 10 segments), false
  // when one sets it; nullopt when the report does not say (an older report).
  std::optional<bool> senders_default_window;
};

// Throws Error naming the file and the key (with the index in an array) of anything missing
// or malformed, and a report without a `qdisc` object (a fan-in run without --qdisc).
FaninQueue fanin_queue(const nlohmann::json& doc, const std::string& file);
FaninQueue read_fanin_queue(InputFile& in);
FaninQueue read_fanin_queue(const std::string& path);

}  // namespace dlcnet::compare
