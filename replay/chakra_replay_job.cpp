// A Chakra job as dlc-replay replays it: one rank per `.et` file, rank r the file of rank r (or
// the ranks of native CSV version 2 files);
// the plan is replay/chakra_plan.hpp's, the report replay/chakra_report.hpp's.
#include <filesystem>
#include <iostream>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "replay/chakra_plan.hpp"
#include "replay/chakra_report.hpp"
#include "replay/replay_job.hpp"
#include "trace/chakra/chakra_loader.hpp"

namespace dlcnet::replay {
namespace {

namespace ck = trace::chakra;

ck::Job read_checked(const JobSource& s) {
  check_chakra_job_options(s.map_spec, s.iterations);
  ck::Job job = ck::read_job(s.inputs, s.collectives.comm_groups);
  check_chakra_replayable(job, s.collectives);
  return job;
}

class ChakraJob final : public ReplayJob {
 public:
  explicit ChakraJob(const JobSource& s)
      : job_(read_checked(s)), coll_(s.collectives), facts_(chakra_job_facts(job_, coll_)) {}

  int world_size() const override { return job_.world; }

  std::string summary() const override {
    return std::to_string(facts_.messages.count) + " messages, " + std::to_string(job_.world) +
           " ranks (Chakra, " + std::to_string(facts_.nodes) + " nodes)";
  }

  void check_world(int world) const override {
    if (job_.world == world) return;
    throw Error("the Chakra job has " + std::to_string(job_.world) +
                " ranks (one per .et file, or as a native CSV file's first line says) but the "
                "world has " +
                std::to_string(world) + " ranks: start one process per rank (or use --spawn)");
  }

  // The rank's file; a native CSV file may hold several ranks: "job.csv rank 2".
  std::string rank_name(int rank) const override {
    const std::filesystem::path file = job_.ranks[static_cast<size_t>(rank)].file;
    const std::string name = file.filename().string();
    return file.extension() == ".et" ? name : name + " rank " + std::to_string(rank);
  }

  runner::Agreement agreement(const PlanOptions& o) const override {
    auto n = [](auto v) { return std::to_string(v); };
    return {
        chakra_fingerprint(job_, o, coll_),
        "Chakra job, or the same with other options (mode, op, root, coll-size)",
        {{"job", n(facts_.messages.count) + " messages of " + n(job_.world) + " ranks"},
         {"--mode", to_string(o.mode)},
         {"--time-scale", n(o.time_scale)},
         {"--op", to_string(o.transfer)},
         {"--root", n(coll_.root)},
         {"--coll-size", coll_.size_reading == ck::SizeReading::kPerRank ? "per-rank" : "whole"}}};
  }

  RankPlan plan(int rank, const PlanOptions& o) const override {
    return build_chakra_plan(job_, rank, o, coll_);
  }

  runner::PatternReport report(ReplayReport& rep, bool print, bool /*want_groups*/,
                               const PlanOptions& o) const override {
    analyse_messages(rep);
    const std::vector<double> think = chakra_think_times_s(job_, o);
    rep.fidelity = judge_fidelity(rep.sched_error_s.p99, summarize_latency(think).p50, think.size(),
                                  o.mode, JobKind::chakra);
    const RankNamer name = [this](int r) { return rank_name(r); };
    const std::vector<CollectiveSpan> spans = collective_spans(job_, rep.flows);
    if (print) print_chakra_report(std::cout, rep, facts_, spans, name);
    runner::PatternReport out;
    out.body = chakra_report_json(rep, facts_, spans, name);
    out.flows = std::move(rep.flows);
    out.ok = rep.ok;
    return out;
  }

 private:
  const ck::Job job_;
  const ck::CollectiveOptions coll_;
  const ChakraJobFacts facts_;
};

}  // namespace

std::unique_ptr<ReplayJob> open_chakra_job(const JobSource& source) {
  return std::make_unique<ChakraJob>(source);
}

}  // namespace dlcnet::replay
