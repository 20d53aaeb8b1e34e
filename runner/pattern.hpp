// An N-rank pattern as the runner (runner/runner.hpp) drives it: what is its own and nothing
// of the sequence around it (the join, the transport, the agreement, the memory rule, the
// clocks, the release, the failure path, the gather and the outputs are the runner's). The
// runner calls, on every rank and in this order:
//   agreement(), receives_needed(), release(), limit_offer()   before the transport is agreed;
//   agreed(limit)      the smallest limit of every rank: plan, refuse what it cannot carry;
//   memory()           checked through the one budget rule before anything is allocated;
//   allocate(t), peers()   before the connect (regions travel with it);
//   prepare(c)         after the clocks before, just before the release;
//   run(c, released)   the measured phase;
//   finish(c, clocks)  after the clocks after: this rank's results for rank 0;
//   report(...)        rank 0: its console lines, its part of the JSON, its messages, its verdict.
// After a failure in run(): write_records() and, at rank 0, incomplete(). use_records() first.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock_sync.hpp"
#include "core/record.hpp"
#include "core/transport.hpp"
#include "core/wire.hpp"
#include "flows/flow.hpp"
#include "launch/job.hpp"

namespace dlcnet::runner {

// What the runner hands a pattern once the transport is open.
struct RankContext {
  Job& job;
  Transport& t;
  Idle idle;
  std::string transport;         // the transport chosen: "verbs" or "ucx"
  std::string transport_reason;  // why (launch/transport_select.hpp)
  int rank = 0;
  int world = 1;
  bool print = true;  // rank 0 prints its console lines (not with --quiet)
};

// What every rank must agree on before anything is allocated.
struct Agreement {
  uint64_t fingerprint = 0;
  // Completes "rank 2 runs another ..." and "ranks 1, 3 run another ...": what differs, e.g.
  // "fan-in (burst, iterations, background, pull or release differ)".
  std::string what;
  // What the fingerprint stands for, option by option ("-n 10"), so that a rank started with
  // other options is named with the option and both values.
  std::vector<std::pair<std::string, std::string>> fields;
};

// Registered memory this rank needs, and what the user can lower.
struct MemoryNeed {
  uint64_t bytes = 0;
  std::string detail;  // "64K per burst x 3 workers"
  std::string fix;     // "lower -s, --burst or the workers"
};

// Rank 0's part of the report.
struct PatternReport {
  nlohmann::json body = nlohmann::json::object();  // the pattern's keys of the JSON
  std::vector<Flow> flows;                         // every message, for --export-flows and --fct
  std::vector<int32_t> groups;                     // parallel to flows (empty: none)
  std::string group_kind;                          // what a group is: "round", "iteration"
  bool ok = true;                                  // the verdict every rank exits with
};

class Pattern {
 public:
  virtual ~Pattern() = default;

  // This rank's --records (null without), before anything runs: for a pattern that writes
  // every record as it completes rather than in write_records().
  virtual void use_records(RecordWriter* /*w*/) {}
  virtual Agreement agreement() const = 0;
  virtual uint32_t receives_needed() const = 0;  // posted receives per peer (beyond the clocks')
  virtual Release release() const = 0;
  // The largest message this rank can carry, from its transport's maximum.
  virtual uint64_t limit_offer(uint64_t transport_max) const { return transport_max; }
  virtual void agreed(uint64_t limit) = 0;
  virtual MemoryNeed memory() const = 0;
  virtual void allocate(Transport& t) = 0;
  virtual std::vector<int> peers() const = 0;
  virtual void prepare(RankContext& c) = 0;
  virtual void run(RankContext& c, int64_t released_at) = 0;
  // After run() returned: what rank 0 gathers from this rank (empty for nothing).
  virtual Bytes finish(RankContext& c, const std::vector<ClockModel>& clocks) = 0;
  // This rank's records of what it completed, after the run or a failure.
  virtual void write_records(RecordWriter& w) = 0;
  // Rank 0, after a failure: adds what was completed to the incomplete JSON; returns how much,
  // for the console ("the 3 size(s) completed before the failure").
  virtual std::string incomplete(RankContext& c, nlohmann::json& doc) = 0;
  // Rank 0: prints its console part (when c.print) and returns the rest of the report.
  virtual PatternReport report(RankContext& c, const std::vector<Bytes>& gathered,
                               const std::vector<ClockModel>& clocks, bool want_groups) = 0;
  // The pattern's keys of the JSON context (dlc-replay: recv_ahead).
  virtual void add_context(nlohmann::json& /*ctx*/) const {}
};

}  // namespace dlcnet::runner
