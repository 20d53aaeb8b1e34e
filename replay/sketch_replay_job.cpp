// A SketchDLC or native job as dlc-replay replays it: one rank per worker and server
// (RankMap), its training iterations cut or looped (Copies), and the report's per-iteration
// figures of the trace next to the replay's.
#include <iostream>

#include "core/error.hpp"
#include "replay/flow_iterations.hpp"
#include "replay/replay_job.hpp"
#include "replay/replay_json.hpp"
#include "replay/replay_rank_map.hpp"
#include "replay/replay_report.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::replay {
namespace {

class SketchJob final : public ReplayJob {
 public:
  explicit SketchJob(const JobSource& s)
      : map_spec_(s.map_spec),
        job_(trace::read_job(s.inputs)),
        map_(RankMap::make(job_, s.map_spec)),
        copies_(Copies::make(job_, s.iterations)) {}

  int world_size() const override { return map_.world_size(); }

  std::string summary() const override {
    return std::to_string(job_.messages.size()) + " messages, " +
           std::to_string(map_.world_size()) + " ranks (" + std::to_string(job_.num_workers) +
           " workers, " + std::to_string(job_.num_servers) + " servers)";
  }

  void check_world(int world) const override {
    if (map_.world_size() == world) return;
    throw Error("the job has " + std::to_string(map_.world_size()) + " nodes to replay (" +
                std::to_string(job_.num_workers) + " workers, " + std::to_string(job_.num_servers) +
                " servers) but the world has " + std::to_string(world) +
                " ranks: start one rank per node (or use --spawn)");
  }

  std::string rank_name(int rank) const override { return job_.nodes[map_.node_of(rank)].name(); }

  runner::Agreement agreement(const PlanOptions& o) const override {
    auto n = [](auto v) { return std::to_string(v); };
    return {plan_fingerprint(job_, map_, o, copies_),
            "job, or the same with other options (mode, op, iterations, map)",
            {{"job", n(job_.messages.size()) + " messages of " + n(job_.nodes.size()) + " nodes"},
             {"--mode", to_string(o.mode)},
             {"--time-scale", n(o.time_scale)},
             {"--op", to_string(o.transfer)},
             {"--iterations", n(copies_.replay_iterations)},
             {"--map", map_spec_.empty() ? "(workers then servers)" : map_spec_}}};
  }

  RankPlan plan(int rank, const PlanOptions& o) const override {
    return build_rank_plan(job_, map_, rank, o, copies_);
  }

  runner::PatternReport report(ReplayReport& rep, bool print, bool want_groups,
                               const PlanOptions& o) const override {
    rep.copies = copies_;
    analyse(rep, job_, map_);
    if (print) print_report(std::cout, rep, job_, map_);
    runner::PatternReport out;
    out.body = report_json(rep, job_, map_);
    if (want_groups) {
      out.groups = flow_iterations(rep.flows, job_, map_, o, copies_);
      out.group_kind = "iteration";
    }
    out.flows = std::move(rep.flows);
    out.ok = rep.ok;
    return out;
  }

 private:
  const std::string map_spec_;
  const trace::Job job_;
  const RankMap map_;
  const Copies copies_;
};

}  // namespace

std::unique_ptr<ReplayJob> open_sketch_job(const JobSource& source) {
  return std::make_unique<SketchJob>(source);
}

}  // namespace dlcnet::replay
