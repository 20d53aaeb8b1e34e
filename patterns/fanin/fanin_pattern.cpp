#include "patterns/fanin/fanin_pattern.hpp"

#include <algorithm>
#include <iostream>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stop_budget.hpp"
#include "core/units.hpp"
#include "patterns/fanin/fanin_queue.hpp"
#include "patterns/fanin/fanin_records.hpp"
#include "patterns/fanin/fanin_report.hpp"
#include "patterns/fanin/fanin_roles.hpp"
#include "runner/record_stream.hpp"
#include "runner/runner.hpp"

namespace dlcnet::fanin {
namespace {

class Fanin final : public runner::Pattern {
 public:
  Fanin(const Options& o, const runner::NRankOptions& n)
      : o_(o),
        spec_(o.spec),
        me_(n.env.rank),
        world_(n.env.world_size),
        workers_(worker_count(world_, spec_)) {
    if (workers_ < 1) {
      throw Error("fanin needs a server (rank 0) and at least one worker: the world has " +
                  std::to_string(world_) + " ranks and --background " +
                  std::to_string(spec_.background));
    }
  }

  runner::Agreement agreement() const override {
    const FaninSpec& s = spec_;
    auto n = [](auto v) { return std::to_string(v); };
    return {s.fingerprint(),
            "fan-in (burst, iterations, background, pull or release differ)",
            {{"burst", n(s.burst.size()) + " messages, " + format_size(s.burst_bytes())},
             {"--op", to_string(s.op)},
             {"--pull", s.pull ? "on" : "off"},
             {"-n", n(s.iterations)},
             {"--warmup", n(s.warmup)},
             {"--solo", n(s.solo)},
             {"--gap", n(s.gap_us)},
             {"--release", to_string(s.release)},
             {"--background", n(s.background)},
             {"--bg-size", format_size(s.bg_size)},
             {"--bg-window", n(s.bg_window)},
             {"--bg-lead", n(s.bg_lead_ms)}}};
  }
  uint32_t receives_needed() const override {
    return std::max(static_cast<uint32_t>(spec_.burst.size()) + 8, kBgRecvs + 8);
  }
  Release release() const override { return spec_.release; }

  void agreed(uint64_t limit) override {
    const uint64_t largest = std::max(*std::max_element(spec_.burst.begin(), spec_.burst.end()),
                                      spec_.background > 0 ? spec_.bg_size : 0);
    if (largest > limit) {
      throw Error("a message of " + format_size(largest) + " exceeds the largest the " +
                  "transports carry (" + format_size(limit) +
                  "): lower -s, --bg-size or split the model");
    }
  }

  // The server holds every worker's burst at once.
  runner::MemoryNeed memory() const override {
    return {data_bytes(spec_, me_, world_),
            format_size(spec_.burst_bytes()) + " per burst" +
                (me_ == kServer ? " x " + std::to_string(workers_) + " workers" : std::string()),
            "lower -s, --burst or the workers"};
  }

  void allocate(Transport& t) override {
    ctl_ = t.allocate_memory(ctl_bytes(world_));
    data_ = t.allocate_memory(std::max<size_t>(data_bytes(spec_, me_, world_), 64));
  }

  std::vector<int> peers() const override {
    std::vector<int> p;
    if (me_ != kServer) return {kServer};
    for (int r = 1; r < world_; ++r) p.push_back(r);
    return p;
  }

  void prepare(runner::RankContext& c) override;

  void run(runner::RankContext& /*c*/, int64_t /*released_at*/) override {
    if (me_ == kServer) {
      run_server(*role_, rounds_, server_);
    } else if (is_worker(me_, world_, spec_)) {
      run_worker(*role_, rounds_, mine_w_);
    } else {
      mine_b_ = run_background(*role_);
    }
  }

  Bytes finish(runner::RankContext& /*c*/, const std::vector<ClockModel>& /*clocks*/) override {
    if (sampler_) queue_ = sampler_->stop();
    if (me_ == kServer) return {};
    return is_worker(me_, world_, spec_) ? encode(mine_w_) : encode(mine_b_);
  }

  void use_records(RecordWriter* w) override { records_.use(w); }

  // What the round callbacks (prepare) have not written: the background's; or the failure
  // that stopped them.
  void write_records(RecordWriter& w) override {
    records_.check();
    uint64_t& seq = records_.seq();
    if (me_ == kServer) {
      for (size_t i = records_.done(); i < server_.rounds.size(); ++i)
        write_server_round(w, spec_, static_cast<int64_t>(i), server_.rounds[i], seq);
      write_server_background(w, spec_, workers_, server_, seq);
    } else if (is_worker(me_, world_, spec_)) {
      for (size_t i = records_.done(); i < mine_w_.size(); ++i)
        write_worker_round(w, spec_, me_, mine_w_[i], seq);
    } else {
      write_background_records(w, spec_, me_, mine_b_);
    }
  }

  // The workers' times never reach rank 0 after a failure: their analysis is the records'.
  std::string incomplete(runner::RankContext& /*c*/, nlohmann::json& doc) override {
    doc["rounds"] = rounds_.size();
    doc["rounds_completed"] = server_.rounds.size();
    return std::to_string(server_.rounds.size()) + " of " + std::to_string(rounds_.size()) +
           " rounds completed";
  }

  runner::PatternReport report(runner::RankContext& c, const std::vector<Bytes>& gathered,
                               const std::vector<ClockModel>& clocks, bool want_groups) override;

 private:
  const Options& o_;
  const FaninSpec& spec_;
  int me_, world_, workers_;
  std::string transport_;
  Allocation ctl_, data_;
  std::unique_ptr<RoleContext> role_;
  std::vector<Round> rounds_;
  std::unique_ptr<QueueSampler> sampler_;
  QueueSeries queue_;
  ServerTimes server_;
  std::vector<WorkerRound> mine_w_;
  runner::RecordStream records_;  // each round's as it completes
  BackgroundTimes mine_b_;
};

void Fanin::prepare(runner::RankContext& c) {
  transport_ = c.transport;
  role_ = std::make_unique<RoleContext>(spec_, me_, world_, c.t, c.job.bootstrap());
  RoleContext& r = *role_;
  r.ctl = ctl_.region;
  r.data = data_.region;
  r.ctl_mem = ctl_.data;
  r.data_mem = data_.data;
  r.idle = c.idle;
  r.timeout = stop_budget(spec_.timeout_s).wait;
  r.min_lead_ns = static_cast<int64_t>(o_.lead_us * 1e3);
  const bool here = same_kernel(c.job.hosts(), static_cast<size_t>(me_));
  const ClockModel before =
      model_before(c.job.hosts(), c.job.clocks_before(), static_cast<size_t>(me_));
  r.to_local = [here, before](int64_t ref, int64_t mono) -> int64_t {
    if (here) return mono + std::llround(link_to_monotonic(8).offset_ns);
    return std::llround(before.to_local(static_cast<double>(ref)));
  };
  rounds_ = schedule(spec_, workers_);
  if (records_.on()) {
    r.server_round = [this](size_t i, const ServerRound& sr) {
      records_.add([&](RecordWriter& w, uint64_t& seq) {
        write_server_round(w, spec_, static_cast<int64_t>(i), sr, seq);
      });
    };
    r.worker_round = [this](const WorkerRound& wr) {
      records_.add(
          [&](RecordWriter& w, uint64_t& seq) { write_worker_round(w, spec_, me_, wr, seq); });
    };
  }
  if (me_ == kServer && !o_.qdisc_dev.empty()) {
    sampler_ = std::make_unique<QueueSampler>(o_.qdisc_dev, o_.qdisc_netns, o_.qdisc_hz);
  }
  if (me_ != kServer) prepare_sender(r);
  if (sampler_) sampler_->start();
}

runner::PatternReport Fanin::report(runner::RankContext& c, const std::vector<Bytes>& gathered,
                                    const std::vector<ClockModel>& clocks, bool /*want_groups*/) {
  std::vector<std::vector<WorkerRound>> wt;
  std::vector<BackgroundTimes> bt;
  for (int r = 1; r < world_; ++r) {
    if (is_worker(r, world_, spec_)) {
      wt.push_back(decode_worker(gathered[static_cast<size_t>(r)], r));
    } else {
      bt.push_back(decode_background(gathered[static_cast<size_t>(r)], r));
    }
  }
  Analysis a = analyse(spec_, rounds_, server_, wt, bt, clocks);
  if (sampler_) add_queue(a, queue_);
  if (c.print) {
    const std::string headline =
        "dlc-bench fanin: " + std::to_string(workers_) + " workers, " + spec_.burst_source + " (" +
        format_size(spec_.burst_bytes()) + " per worker), --op " + to_string(spec_.op) +
        ", release " + to_string(spec_.release) + ", transport " + transport_ +
        (spec_.background ? ", background " + std::to_string(spec_.background) + " x " +
                                format_size(spec_.bg_size)
                          : std::string());
    print_fanin(std::cout, spec_, a, headline);
    if (sampler_) std::cout << queue_line(queue_) << '\n';
  }
  runner::PatternReport rep;
  rep.body = fanin_json(spec_, a);
  if (sampler_) rep.body["qdisc"] = queue_json(queue_);
  // Groups are the rounds (solo, warm-up and measured alike); background messages have none.
  for (const Flow& f : a.flows) rep.groups.push_back(f.key >= 0 ? f.opnum : -1);
  rep.flows = std::move(a.flows);
  rep.group_kind = "round";
  return rep;
}

}  // namespace

int run_rank(const Options& o, const runner::NRankOptions& n, int argc, const char* const* argv) {
  Fanin p(o, n);
  return runner::run_rank(n, "dlc-bench fanin", p, argc, argv);
}

}  // namespace dlcnet::fanin
