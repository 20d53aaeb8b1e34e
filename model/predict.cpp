#include "model/predict.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>
#include <unordered_map>

#include "core/error.hpp"
#include "model/fluid_queue.hpp"
#include "model/link_buckets.hpp"
#include "model/maxmin.hpp"
#include "model/pair_flows.hpp"

namespace dlcnet::model {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A flow within this fraction of its bytes (plus as many bytes) of its end is done: the
// rounding residue of advancing `served` by rate x time.
constexpr double kDoneTolerance = 1e-9;
// The port's input must exceed its rate by this fraction before a full buffer holds senders.
constexpr double kRateTolerance = 1e-12;
// Two instants closer than this fraction of the time (plus as many seconds) are one: below it
// now + dt == now in doubles, and a step would make no progress.
constexpr double kTimeTolerance = 1e-15;
// Steps in a row without progress before the model gives up (a bug, not an input's fault).
constexpr int kMaxIdleSteps = 1000;

bool valid_delays(const Message& m) {
  if (m.after_delay_s.empty()) return true;
  if (m.after_delay_s.size() != m.after.size()) return false;
  return std::all_of(m.after_delay_s.begin(), m.after_delay_s.end(),
                     [](double d) { return d >= 0 && d < kInf; });
}

class Run {
 public:
  Run(const Network& n, const Calibration& c, std::span<const Message> m)
      : net_(n), cal_(c), msgs_(m), hosts_(n.hosts()), port_host_(n.port ? n.port->host : kNoLink) {
    validate(n);
    capacity_.insert(capacity_.end(), n.up_Bps.begin(), n.up_Bps.end());
    capacity_.insert(capacity_.end(), n.down_Bps.begin(), n.down_Bps.end());
    if (n.port) {
      capacity_.push_back(n.port->rate_Bps);
      queue_.emplace(n.port->rate_Bps, n.port->buffer_bytes);
    }
    link_bytes_.assign(capacity_.size(), 0);
    std::vector<double> depth(n.up_bucket_bytes);
    depth.resize(hosts_, 0);
    depth.insert(depth.end(), n.down_bucket_bytes.begin(), n.down_bucket_bytes.end());
    depth.resize(capacity_.size(), 0);  // the bottleneck port has none
    buckets_.emplace(capacity_, depth, n.burst_Bps);
    if (!buckets_->any()) buckets_.reset();
    offered_.assign(capacity_.size(), 0);
    load_.assign(capacity_.size(), 0);
    out_.messages.resize(m.size());
    index_dependencies();
  }

  Prediction run() {
    now_ = std::min(0.0, next_arrival());  // inputs may start before 0
    while (step()) {
    }
    finish_checks();
    return std::move(out_);
  }

 private:
  uint32_t up(uint32_t h) const noexcept { return h; }
  uint32_t down(uint32_t h) const noexcept { return hosts_ + h; }
  uint32_t port_link() const noexcept { return 2 * hosts_; }
  bool to_port(uint32_t dst) const noexcept { return dst == port_host_; }

  void index_dependencies() {
    const size_t n = msgs_.size();
    waiting_.assign(n, 0);
    follower_.assign(n, kNoMessage);
    first_dependent_.assign(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      const Message& m = msgs_[i];
      if (m.src >= hosts_ || m.dst >= hosts_) {
        throw Error("model: message " + std::to_string(m.id) + " from host " +
                    std::to_string(m.src) + " to host " + std::to_string(m.dst) + ": only " +
                    std::to_string(hosts_) + " hosts");
      }
      if (!(m.think_s >= 0) || (m.after.empty() && !std::isfinite(m.start_s)) ||
          std::isnan(m.not_before_s) || m.not_before_s == kInf || !valid_delays(m)) {
        throw Error("model: message " + std::to_string(m.id) + ": bad start or think time");
      }
      with_delays_ |= !m.after_delay_s.empty();
      for (uint32_t a : m.after) {
        if (a >= n) {
          throw Error("model: message " + std::to_string(m.id) + " waits for position " +
                      std::to_string(a) + ": the input has " + std::to_string(n) + " messages");
        }
        ++first_dependent_[a + 1];
      }
      waiting_[i] = static_cast<uint32_t>(m.after.size());
      if (!m.after.empty()) out_.messages[i].start_s = m.not_before_s;  // the latest so far
      if (m.follows != kNoMessage) follow(static_cast<uint32_t>(i));
    }
    for (size_t i = 0; i < n; ++i) first_dependent_[i + 1] += first_dependent_[i];
    dependents_.resize(first_dependent_[n]);
    if (with_delays_) dependent_delay_.resize(first_dependent_[n]);
    // Each row filled through its start, which ends at the next row's start; then shifted back.
    // No copy of the starts: at a million messages, memory touched costs as much as work.
    for (uint32_t i = 0; i < n; ++i) {
      const Message& m = msgs_[i];
      for (size_t k = 0; k < m.after.size(); ++k) {
        const uint32_t slot = first_dependent_[m.after[k]]++;
        dependents_[slot] = i;
        if (with_delays_) dependent_delay_[slot] = m.after_delay_s.empty() ? 0 : m.after_delay_s[k];
      }
    }
    for (size_t i = n; i > 0; --i) first_dependent_[i] = first_dependent_[i - 1];
    first_dependent_[0] = 0;
    // The messages that wait for nothing, then (release) the followers they free.
    std::vector<uint32_t> ready;
    for (uint32_t i = 0; i < n; ++i) {
      if (waiting_[i] == 0) ready.push_back(i);
    }
    for (uint32_t i : ready) release(i, true);
    std::stable_sort(timed_.begin(), timed_.end(), [&](uint32_t a, uint32_t b) {
      return out_.messages[a].wire_s < out_.messages[b].wire_s;
    });
  }

  // Message i is posted no earlier than the message it follows (one follower per message).
  void follow(uint32_t i) {
    const Message& m = msgs_[i];
    if (m.follows >= msgs_.size() || m.follows == i || follower_[m.follows] != kNoMessage) {
      throw Error("model: message " + std::to_string(m.id) + " follows position " +
                  std::to_string(m.follows) + ": not another message of the input, or one that " +
                  "another message follows");
    }
    follower_[m.follows] = i;
    ++waiting_[i];
  }

  // Posts message i, which waits for nothing more (`at_start`: before the run), then each
  // follower whose post was all it still waited for: the later of its own start (the latest
  // arrival plus its think time) and its predecessor's post, on the wire after it.
  void release(uint32_t i, bool at_start) {
    for (;;) {
      const Message& m = msgs_[i];
      const double own = m.after.empty() ? m.start_s : out_.messages[i].start_s + m.think_s;
      MessageTimes& t = out_.messages[i];
      if (m.follows == kNoMessage) {
        post(i, own);
      } else {
        const MessageTimes& before = out_.messages[m.follows];
        post(i, std::max(own, before.start_s));
        t.wire_s = std::max(t.wire_s, before.wire_s);
      }
      if (at_start) {
        timed_.push_back(i);
      } else {
        released_.emplace(t.wire_s, i);
      }
      i = follower_[i];
      if (i == kNoMessage || --waiting_[i] != 0) return;
    }
  }

  void post(uint32_t i, double start) {
    MessageTimes& t = out_.messages[i];
    t.start_s = start;
    t.wire_s = start + cal_.overhead_for(msgs_[i].bytes);
  }

  double next_arrival() const noexcept {
    double t = kInf;
    if (next_timed_ < timed_.size()) t = out_.messages[timed_[next_timed_]].wire_s;
    if (!released_.empty()) t = std::min(t, released_.top().first);
    return t;
  }

  bool step() {
    double t = std::min(next_arrival(), now_ + next_done_);
    if (queue_) t = std::min(t, now_ + queue_->next_change());
    if (buckets_) t = std::min(t, now_ + buckets_->next_change());
    if (t == kInf) return false;
    const size_t progress = completed_ + joined_;
    advance_and_complete(t);
    start_arrivals();
    solve();
    ++out_.events;
    if (t > last_t_ || completed_ + joined_ != progress) {
      idle_steps_ = 0;
      last_t_ = t;
    } else if (++idle_steps_ > kMaxIdleSteps) {
      throw Error("model: no progress at t = " + std::to_string(t) + " s (a bug in the model)");
    }
    return true;
  }

  double slack_s() const noexcept { return kTimeTolerance * (1 + std::abs(now_)); }

  // Moves time to t (every active pair's flows served at its rate, the port's queue at its
  // input) and completes the flows done by then: one pass over the active pairs.
  void advance_and_complete(double t) {
    const double dt = std::max(0.0, t - now_);
    now_ = std::max(now_, t);
    if (queue_) {
      if (dt > 0) queue_->advance(dt);
      queue_->settle(slack_s());  // before completions: a message's wait at the port
    }
    if (buckets_ && dt > 0) buckets_->advance(dt);
    const double slack = slack_s();  // now_ stays put while flows complete
    for (size_t k = 0; k < active_.size();) {
      PairFlows& p = pairs_[active_[k]];
      p.served += p.rate * dt;
      uint32_t m;
      while (p.pop_done(kDoneTolerance, slack, m)) complete(m);
      if (p.count() == 0) {
        deactivate(active_[k]);  // swaps the last active pair into k
      } else {
        ++k;
      }
    }
  }

  void complete(uint32_t i) {
    const Message& m = msgs_[i];
    MessageTimes& t = out_.messages[i];
    t.sent_s = now_;
    const double wait = to_port(m.dst) ? queue_->wait_s() : 0;
    t.finish_s = now_ + wait + net_.latency_s;
    const double wire = cal_.wire_bytes(m.bytes);
    link_bytes_[up(m.src)] += wire;
    link_bytes_[to_port(m.dst) ? port_link() : down(m.dst)] += wire;
    ++completed_;
    for (uint32_t k = first_dependent_[i]; k < first_dependent_[i + 1]; ++k) {
      const uint32_t d = dependents_[k];
      double& latest = out_.messages[d].start_s;  // until it is posted
      latest = std::max(latest, t.finish_s + (with_delays_ ? dependent_delay_[k] : 0));
      if (--waiting_[d] == 0) release(d, false);
    }
  }

  void start_arrivals() {
    while (next_timed_ < timed_.size() && out_.messages[timed_[next_timed_]].wire_s <= now_)
      join(timed_[next_timed_++]);
    while (!released_.empty() && released_.top().first <= now_) {
      join(released_.top().second);
      released_.pop();
    }
  }

  void join(uint32_t i) {
    const Message& m = msgs_[i];
    const uint64_t key = (static_cast<uint64_t>(m.src) << 32) | m.dst;
    auto [it, fresh] = pair_of_.try_emplace(key, static_cast<uint32_t>(pairs_.size()));
    if (fresh) {
      pairs_.emplace_back();
      pairs_.back().src = m.src;
      pairs_.back().dst = m.dst;
      pairs_.back().fifo = net_.connections;
    }
    PairFlows& p = pairs_[it->second];
    if (p.count() == 0) {
      p.active_at = static_cast<uint32_t>(active_.size());
      active_.push_back(it->second);
    }
    p.add(i, cal_.wire_bytes(m.bytes));
    ++joined_;
  }

  void deactivate(uint32_t pair) {
    const uint32_t at = pairs_[pair].active_at;
    active_[at] = active_.back();
    pairs_[active_[at]].active_at = at;
    active_.pop_back();
  }

  // Max-min rates of the active pairs; with a port whose buffer is full and whose input
  // would exceed its rate, the port joins the links (the lossless buffer holds senders back).
  void solve() {
    double in = solve_with(false);
    if (queue_ && queue_->full() && in > queue_->rate() * (1 + kRateTolerance))
      in = solve_with(true);
    if (queue_) queue_->set_input(now_, in);
  }

  double solve_with(bool port_limits) {
    ++out_.solves;
    out_.solved_pairs += active_.size();
    const size_t count = active_.size();
    vars_.resize(count);
    rates_.resize(count);
    for (size_t k = 0; k < count; ++k) {
      const PairFlows& f = pairs_[active_[k]];
      const uint32_t b = to_port(f.dst) ? (port_limits ? port_link() : kNoLink) : down(f.dst);
      vars_[k] = {f.weight(), up(f.src), b};
    }
    if (buckets_) buckets_->offered(offered_);
    maxmin_.solve(buckets_ ? offered_ : capacity_, vars_, rates_);
    // The rates, the port's input and the next completion at these rates, in one pass.
    double in = 0;
    next_done_ = kInf;
    if (buckets_) std::fill(load_.begin(), load_.end(), 0.0);
    for (size_t k = 0; k < count; ++k) {
      PairFlows& f = pairs_[active_[k]];
      f.rate = rates_[k];
      if (to_port(f.dst)) in += rates_[k] * f.weight();
      next_done_ = std::min(next_done_, f.next_done());
      if (buckets_) {
        load_[up(f.src)] += rates_[k] * f.weight();
        if (!to_port(f.dst)) load_[down(f.dst)] += rates_[k] * f.weight();
      }
    }
    if (buckets_) buckets_->set_load(load_);
    return in;
  }

  void finish_checks() {
    if (completed_ != msgs_.size()) {
      for (size_t i = 0; i < msgs_.size(); ++i) {
        if (waiting_[i] > 0) {
          throw Error("model: message " + std::to_string(msgs_[i].id) +
                      " is never posted: it waits for messages that wait for it");
        }
      }
      throw Error("model: " + std::to_string(msgs_.size() - completed_) +
                  " messages never complete (a link without capacity?)");
    }
    out_.begin_s = kInf;
    out_.end_s = -kInf;
    for (const MessageTimes& t : out_.messages) {
      out_.begin_s = std::min(out_.begin_s, t.start_s);
      out_.end_s = std::max(out_.end_s, t.finish_s);
    }
    if (msgs_.empty()) out_.begin_s = out_.end_s = 0;
    const double span = out_.end_s - out_.begin_s;
    for (uint32_t l = 0; l < capacity_.size(); ++l) {
      const std::string name = l < hosts_       ? up_link_name(l)
                               : l < 2 * hosts_ ? down_link_name(l - hosts_)
                                                : port_name(net_.port->host);
      out_.links.push_back({name, capacity_[l], link_bytes_[l],
                            span > 0 ? link_bytes_[l] / (capacity_[l] * span) : 0});
    }
    if (queue_) {
      out_.queue = queue_->trace(now_);
      out_.queue_max_bytes = queue_->max_bytes();
    }
  }

  const Network& net_;
  const Calibration& cal_;
  std::span<const Message> msgs_;
  uint32_t hosts_;
  uint32_t port_host_;  // the host behind the bottleneck port, or kNoLink
  std::vector<double> capacity_, link_bytes_;
  std::optional<FluidQueue> queue_;
  std::optional<LinkBuckets> buckets_;  // none when no link has a bucket
  std::vector<double> offered_, load_;  // per link: its rate now, the bytes/s crossing it
  Prediction out_;
  // Dependencies: how many each message still waits for (the latest arrival among those that
  // came is its start time until it is posted), and who waits for whom (compressed rows).
  std::vector<uint32_t> waiting_, first_dependent_, dependents_;
  std::vector<uint32_t> follower_;       // per message: the one that follows it (kNoMessage: none)
  std::vector<double> dependent_delay_;  // per row of dependents_: Message::after_delay_s
  bool with_delays_ = false;
  // Arrivals: messages with a start time in order of wire time, then those released by their
  // dependencies (a min-heap).
  std::vector<uint32_t> timed_;
  size_t next_timed_ = 0;
  using Release = std::pair<double, uint32_t>;
  std::priority_queue<Release, std::vector<Release>, std::greater<>> released_;
  // Active flows, per pair.
  std::unordered_map<uint64_t, uint32_t> pair_of_;
  std::vector<PairFlows> pairs_;
  std::vector<uint32_t> active_;
  MaxMin maxmin_;
  std::vector<MaxMinVar> vars_;
  std::vector<double> rates_;
  double now_ = 0, next_done_ = kInf, last_t_ = -kInf;
  int idle_steps_ = 0;
  size_t completed_ = 0, joined_ = 0;
};

}  // namespace

Prediction predict(const Network& network, const Calibration& calibration,
                   std::span<const Message> messages) {
  return Run(network, calibration, messages).run();
}

}  // namespace dlcnet::model
