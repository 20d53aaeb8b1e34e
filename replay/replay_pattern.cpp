#include "replay/replay_pattern.hpp"

#include <algorithm>
#include <iostream>
#include <optional>

#include "core/error.hpp"
#include "core/progress_line.hpp"
#include "core/stop_budget.hpp"
#include "replay/replay_engine.hpp"
#include "runner/runner.hpp"

namespace dlcnet::replay {
namespace {

constexpr uint64_t kMaxPart = uint64_t{1} << 30;  // lengths travel as 32-bit in verbs

class Replay final : public runner::Pattern {
 public:
  Replay(const Options& o, const runner::NRankOptions& n)
      : o_(o),
        n_(n),
        me_(n.env.rank),
        world_(n.env.world_size),
        job_(open_replay_job(job_source(o))),
        popts_(o.plan) {
    job_->check_world(world_);
    popts_.part_bytes = 0;  // agreed below: the smallest every rank's transport can carry
  }

  // Every rank must replay the same job with the same options, or channels would mismatch.
  runner::Agreement agreement() const override { return job_->agreement(popts_); }
  uint32_t receives_needed() const override { return o_.recv_ahead; }
  Release release() const override { return o_.release; }
  uint64_t limit_offer(uint64_t transport_max) const override {
    uint64_t part = std::min(transport_max, kMaxPart);
    if (o_.part_limit > 0) part = std::min(part, o_.part_limit);
    return part;
  }
  void agreed(uint64_t limit) override {
    popts_.part_bytes = limit;
    plan_.emplace(job_->plan(me_, popts_));
  }
  runner::MemoryNeed memory() const override {
    return {plan_->region_bytes, "the largest messages of " + name(me_) + " in flight at once",
            "lower --part-bytes or --recv-ahead"};
  }
  // The transport's own memory, freed with it after its teardown progressed the last messages.
  void allocate(Transport& t) override {
    region_ = t.allocate_memory(std::max<uint64_t>(plan_->region_bytes, 1)).region;
  }
  std::vector<int> peers() const override { return plan_->peers; }

  void prepare(runner::RankContext& c) override {
    EngineConfig ec;
    ec.transfer = popts_.transfer;
    ec.notify_after_write_completion = !c.t.orders_write_before_send();
    ec.recv_ahead = o_.recv_ahead;
    ec.progress_timeout = stop_budget(n_.timeout_s).wait;  // the rest settles the failure
    ec.idle = c.idle;
    ec.fault_after = o_.fault_rank == me_ ? o_.fault_after : -1;
    ec.fault_signal = o_.fault_signal;
    ec.records = records_;
    ec.rank_name = [this](int r) { return name(r); };
    ec.show_progress = me_ == 0 && ProgressLine::wanted(stderr);
    engine_ = std::make_unique<Engine>(*plan_, c.t, c.job.bootstrap(), region_, ec);
    engine_->prepare();
    transport_ = c.transport;
  }

  void run(runner::RankContext& /*c*/, int64_t released_at) override {
    result_ = engine_->run(released_at);
  }

  Bytes finish(runner::RankContext& c, const std::vector<ClockModel>& clocks) override {
    const std::vector<Bytes> posts = c.job.bootstrap().alltoall(encode_post_times(*plan_, result_));
    mine_ = make_rank_report(*plan_, result_, posts, clocks);
    return me_ == 0 ? Bytes{} : encode_report(mine_);
  }

  // The engine writes every record as it completes and flushes them before it throws.
  void write_records(RecordWriter& /*w*/) override {}
  void use_records(RecordWriter* w) override { records_ = w; }

  // The other ranks' times never reach rank 0 after a failure.
  std::string incomplete(runner::RankContext& /*c*/, nlohmann::json& doc) override {
    const EngineProgress p = engine_->progress();
    doc["job"] = {{"inputs", o_.inputs}};
    doc["rank0"] = {{"records_done", p.done},
                    {"records_planned", p.planned},
                    {"records_written", p.records_written}};
    return "rank 0's " + std::to_string(p.done) + " of " + std::to_string(p.planned) +
           " records completed";
  }

  runner::PatternReport report(runner::RankContext& c, const std::vector<Bytes>& gathered,
                               const std::vector<ClockModel>& /*clocks*/,
                               bool want_groups) override {
    ReplayReport rep;
    rep.inputs = o_.inputs;
    rep.options = popts_;
    rep.transport = transport_;
    rep.transport_reason = c.transport_reason;
    rep.world_size = world_;
    rep.rank_source = n_.env.source;
    rep.ranks.push_back(mine_);
    for (int r = 1; r < world_; ++r)
      rep.ranks.push_back(decode_report(gathered[static_cast<size_t>(r)], r));
    rep.clocks = c.job.clock_reports();
    return job_->report(rep, c.print, want_groups, popts_);
  }

  void add_context(nlohmann::json& ctx) const override { ctx["recv_ahead"] = o_.recv_ahead; }

 private:
  std::string name(int r) const {
    return "rank " + std::to_string(r) + " (" + job_->rank_name(r) + ")";
  }

  const Options& o_;
  const runner::NRankOptions& n_;
  int me_, world_;
  const std::unique_ptr<ReplayJob> job_;
  PlanOptions popts_;
  std::optional<RankPlan> plan_;
  RegionId region_ = 0;
  RecordWriter* records_ = nullptr;
  std::unique_ptr<Engine> engine_;
  std::string transport_;
  EngineResult result_;
  RankReport mine_;
};

}  // namespace

JobSource job_source(const Options& o) {
  return {o.inputs, o.map_spec, o.plan.iterations, o.collectives};
}

int run_rank(const Options& o, const runner::NRankOptions& n, int argc, const char* const* argv) {
  Replay p(o, n);
  return runner::run_rank(n, "dlc-replay", p, argc, argv);
}

}  // namespace dlcnet::replay
