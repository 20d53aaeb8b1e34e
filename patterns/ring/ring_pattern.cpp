#include "patterns/ring/ring_pattern.hpp"

#include <algorithm>
#include <iostream>
#include <set>

#include "core/error.hpp"
#include "core/units.hpp"
#include "patterns/ring/ring_analysis.hpp"
#include "patterns/ring/ring_engine.hpp"
#include "patterns/ring/ring_records.hpp"
#include "patterns/ring/ring_report.hpp"
#include "runner/record_stream.hpp"
#include "runner/runner.hpp"

namespace dlcnet::ring {
namespace {

// This size's times of every rank, at rank 0 (others get nothing).
std::vector<SizeTimes> to_root(Bootstrap& boot, const SizeTimes& mine, int me, int world) {
  std::vector<Bytes> out(static_cast<size_t>(world));
  if (me != 0) out[0] = encode({mine});
  std::vector<Bytes> got = boot.alltoall(out);
  std::vector<SizeTimes> all;
  if (me != 0) return all;
  for (int r = 0; r < world; ++r) {
    if (r == 0) {
      all.push_back(mine);
      continue;
    }
    std::vector<SizeTimes> one = decode(got[static_cast<size_t>(r)], r);
    if (one.size() != 1)
      throw ProtocolError("ring times of rank " + std::to_string(r) + ": not one size");
    all.push_back(std::move(one[0]));
  }
  return all;
}

class Ring final : public runner::Pattern {
 public:
  Ring(const RingSpec& spec, const runner::NRankOptions& n)
      : spec_(spec),
        me_(n.env.rank),
        world_(n.env.world_size),
        def_(collective(spec.collective)),
        map_(region_map(spec, world_)) {
    if (world_ < 2) {
      throw Error("a collective needs at least 2 ranks: the world has " + std::to_string(world_));
    }
    if (spec.root >= world_) {
      throw Error("--root " + std::to_string(spec.root) + ": the world has ranks 0 to " +
                  std::to_string(world_ - 1));
    }
  }

  runner::Agreement agreement() const override {
    const RingSpec& s = spec_;
    auto n = [](auto v) { return std::to_string(v); };
    return {s.fingerprint(),
            "collective (collective, sizes, -n, -w, -c, --op, --segment or --in-place differ)",
            {{"--collective", s.collective},
             {"--root", n(s.root)},
             {"sizes", n(s.sizes.size()) + " from " + format_size(s.sizes.front()) + " to " +
                           format_size(s.sizes.back())},
             {"-n", n(s.iterations)},
             {"-w", n(s.warmup)},
             {"-c", s.check ? "1" : "0"},
             {"--op", to_string(s.op)},
             {"--segment", format_size(s.segment_bytes)},
             {"--in-place", s.in_place ? "on" : "off"},
             {"--timeout", n(s.timeout_s)}}};
  }
  uint32_t receives_needed() const override {
    return static_cast<uint32_t>(2 * map_.max_slots + 8);
  }
  Release release() const override { return Release::barrier; }

  void agreed(uint64_t limit) override {
    for (uint64_t bytes : spec_.sizes) {
      SizeSetup s{layout_of(def_, bytes, world_, spec_.root, spec_.in_place), {}, {}};
      if (s.layout.max_chunk * sizeof(float) > limit) {
        throw Error("a message of " + format_size(s.layout.max_chunk * sizeof(float)) + " (size " +
                    format_size(bytes) + " over " + std::to_string(world_) +
                    " ranks) exceeds the largest the transports carry (" + format_size(limit) +
                    "): lower -e");
      }
      s.plan = plan_for(def_, s.layout, me_);
      s.segs = cut(s.plan, spec_.segment_bytes);
      if (me_ == 0) {
        std::vector<Plan> plans;
        for (int r = 0; r < world_; ++r) plans.push_back(plan_for(def_, s.layout, r));
        all_plans_.push_back(std::move(plans));
      }
      setups_.push_back(std::move(s));
    }
  }

  runner::MemoryNeed memory() const override {
    return {map_.total, "input, outputs and staging for -e " + format_size(spec_.sizes.back()),
            "lower -e"};
  }

  void allocate(Transport& t) override { mem_ = t.allocate_memory(map_.total); }

  // Ring neighbours (everyone where all_peers: all-to-all, gather, scatter, barrier),
  // and rank 0 with everyone for the clocks.
  std::vector<int> peers() const override {
    std::set<int> p;
    if (def_.all_peers || me_ == 0) {
      for (int r = 0; r < world_; ++r) p.insert(r);
    } else {
      p.insert({(me_ + 1) % world_, (me_ + world_ - 1) % world_, 0});
    }
    p.erase(me_);
    return {p.begin(), p.end()};
  }

  void prepare(runner::RankContext& c) override {
    engine_ = std::make_unique<RingEngine>(EngineContext{c.t, c.job.bootstrap(), spec_, def_, me_,
                                                         mem_.data, mem_.region, map_, c.idle});
    engine_->prime(setups_.front());
    if (!c.print) return;
    std::cout << "# dlc-bench ring: " << spec_.collective
              << (def_.rooted ? " from root " + std::to_string(spec_.root) : std::string())
              << " on " << world_ << " ranks, --op " << to_string(spec_.op) << ", transport "
              << c.transport << ", float sum, -n " << spec_.iterations << " -w " << spec_.warmup
              << " -c " << (spec_.check ? 1 : 0) << '\n';
    for (int r = 0; r < world_; ++r) {
      std::cout << "#  Rank " << r << " on " << c.job.hosts()[static_cast<size_t>(r)].hostname
                << '\n';
    }
    table_ = std::make_unique<RingTable>(std::cout);
    table_->header();
  }

  void run(runner::RankContext& c, int64_t /*released_at*/) override {
    for (size_t k = 0; k < setups_.size(); ++k) {
      engine_->run_size(setups_[k], k + 1 < setups_.size() ? &setups_[k + 1] : nullptr,
                        mine_.emplace_back());
      records_.add([&](RecordWriter& w, uint64_t& seq) {
        write_size_records(w, spec_, me_, k, setups_[k].plan, mine_.back(), seq);
      });
      std::vector<SizeTimes> got = to_root(c.job.bootstrap(), mine_.back(), me_, world_);
      if (me_ != 0) continue;
      rows_.push_back(make_row(def_, setups_[k].layout, got));
      if (table_) table_->row(rows_.back());
      all_.push_back(std::move(got));
    }
  }

  Bytes finish(runner::RankContext& /*c*/, const std::vector<ClockModel>& /*clocks*/) override {
    return {};  // every size's times reached rank 0 as it finished
  }

  void use_records(RecordWriter* w) override { records_.use(w); }

  // What run() has not written: after a failure, the iterations of the size it was in; or the
  // failure that stopped the records.
  void write_records(RecordWriter& w) override {
    records_.check();
    for (size_t k = records_.done(); k < mine_.size(); ++k)
      write_size_records(w, spec_, me_, k, setups_[k].plan, mine_[k], records_.seq());
  }

  // The sizes completed before, on the clocks of the alignment before the run.
  std::string incomplete(runner::RankContext& c, nlohmann::json& doc) override {
    std::vector<ClockModel> before;
    for (int r = 0; r < world_; ++r)
      before.push_back(model_before(c.job.hosts(), c.job.clocks_before(), static_cast<size_t>(r)));
    nlohmann::json part = ring_json(spec_, world_, analyse(before));
    part.update(doc);
    doc = std::move(part);
    if (mine_.size() > all_.size()) {  // the size it failed in: this rank's measured iterations
      const size_t k = all_.size();
      doc["size_in_progress"] = {{"size_bytes", spec_.sizes[k]},
                                 {"iterations_measured_rank0", mine_[k].runs.size()}};
    }
    return "the " + std::to_string(all_.size()) + " size(s) completed";
  }

  runner::PatternReport report(runner::RankContext& c, const std::vector<Bytes>& /*gathered*/,
                               const std::vector<ClockModel>& clocks,
                               bool /*want_groups*/) override {
    const std::vector<SizeResult> results = analyse(clocks);
    if (c.print) {
      print_footer(std::cout, rows_);
      if (!results.empty()) print_steps(std::cout, results.back());
    }
    runner::PatternReport rep;
    rep.body = ring_json(spec_, world_, results);
    rep.ok = rep.body["wrong_total"].get<uint64_t>() == 0;
    // Groups are the measured iterations, numbered on across the sizes.
    int32_t base = 0;
    for (const SizeResult& r : results) {
      int32_t runs = 0;
      for (const Flow& f : r.flows) {
        rep.flows.push_back(f);
        rep.groups.push_back(base + f.opnum);
        runs = std::max(runs, f.opnum + 1);
      }
      base += runs;
    }
    rep.group_kind = "iteration";
    return rep;
  }

 private:
  std::vector<SizeResult> analyse(const std::vector<ClockModel>& clocks) const {
    std::vector<SizeResult> done;
    for (size_t k = 0; k < all_.size(); ++k) {
      done.push_back(analyse_size(def_, setups_[k].layout, all_plans_[k], spec_.segment_bytes,
                                  all_[k], clocks));
    }
    return done;
  }

  const RingSpec& spec_;
  int me_, world_;
  const CollectiveDef& def_;
  RegionMap map_;
  std::vector<SizeSetup> setups_;
  std::vector<std::vector<Plan>> all_plans_;  // rank 0: [size][rank]
  Allocation mem_;
  std::unique_ptr<RingEngine> engine_;
  std::unique_ptr<RingTable> table_;
  std::vector<SizeTimes> mine_;              // the last one partial after a failure
  runner::RecordStream records_;             // each size's as it completes
  std::vector<std::vector<SizeTimes>> all_;  // rank 0: [size][rank]
  std::vector<Row> rows_;
};

}  // namespace

int run_rank(const RingSpec& spec, const runner::NRankOptions& n, int argc,
             const char* const* argv) {
  Ring p(spec, n);
  return runner::run_rank(n, "dlc-bench ring", p, argc, argv);
}

}  // namespace dlcnet::ring
