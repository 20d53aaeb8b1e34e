#include "patterns/fanin/fanin_analysis.hpp"

#include <algorithm>
#include <limits>

namespace dlcnet::fanin {
namespace {

// Each worker's rounds by round index ([worker index][round]; null where it had no part), so
// that a round finds its workers' times without a search.
using ByRound = std::vector<std::vector<const WorkerRound*>>;
ByRound by_round(const std::vector<std::vector<WorkerRound>>& workers, size_t rounds) {
  ByRound by(workers.size(), std::vector<const WorkerRound*>(rounds, nullptr));
  for (size_t wi = 0; wi < workers.size(); ++wi) {
    for (const WorkerRound& r : workers[wi]) {
      if (r.round < rounds) by[wi][r.round] = &r;
    }
  }
  return by;
}

// The burst messages of round `index` on rank 0's clock, worker by worker.
std::vector<Message> messages_of(const FaninSpec& spec, uint32_t index, const ServerRound& sr,
                                 const ByRound& workers, const std::vector<ClockModel>& clocks) {
  std::vector<Message> out;
  for (size_t wi = 0; wi < workers.size(); ++wi) {
    const int w = static_cast<int>(wi) + 1;
    if (sr.arrival_ns[wi].empty()) continue;
    const WorkerRound* wr = workers[wi][index];
    if (wr == nullptr) continue;
    const ClockModel& m = clocks[static_cast<size_t>(w)];
    for (size_t k = 0; k < spec.burst.size(); ++k) {
      Message msg;
      msg.worker = w;
      msg.index = k;
      msg.bytes = spec.burst[k];
      msg.post_ns = m.to_reference(wr->post_ns[k]);
      msg.arrival_ns = static_cast<double>(sr.arrival_ns[wi][k]);
      msg.bound_ns = m.uncertainty_ns;
      out.push_back(msg);
    }
  }
  return out;
}

struct Span {
  double first_post = std::numeric_limits<double>::max();
  double first_arrival = std::numeric_limits<double>::max();
  double last_arrival = 0, bound = 0;
};
Span span_of(const std::vector<Message>& ms) {
  Span s;
  for (const Message& m : ms) {
    s.first_post = std::min(s.first_post, m.post_ns);
    s.first_arrival = std::min(s.first_arrival, m.arrival_ns);
    s.last_arrival = std::max(s.last_arrival, m.arrival_ns);
    s.bound = std::max(s.bound, m.bound_ns);
  }
  return s;
}

Solo solo_of(const FaninSpec& spec, const std::vector<Round>& rounds, const ServerTimes& server,
             const ByRound& workers, const std::vector<ClockModel>& clocks) {
  Solo s;
  s.min_latency_ns.assign(spec.burst.size(), std::numeric_limits<double>::max());
  std::vector<double> rates, bcts;
  std::vector<std::vector<Message>> solos;
  for (uint32_t i = 0; i < rounds.size(); ++i) {
    if (rounds[i].kind != RoundKind::solo) continue;
    std::vector<Message> ms = messages_of(spec, i, server.rounds[i], workers, clocks);
    if (ms.empty()) continue;
    const Span sp = span_of(ms);
    bcts.push_back(sp.last_arrival - sp.first_post);
    // The rate from the arrivals after the first (its own time is latency, not rate); a burst
    // of one message gives bytes over its whole time (a lower bound of the rate).
    const auto first = std::min_element(ms.begin(), ms.end(), [](const auto& a, const auto& b) {
      return a.arrival_ns < b.arrival_ns;
    });
    const double after = static_cast<double>(spec.burst_bytes() - first->bytes);
    const double t = sp.last_arrival - sp.first_arrival;
    if (ms.size() >= 2 && t > 0 && after > 0) {
      rates.push_back(after / t * 1e9);
    } else if (sp.last_arrival > sp.first_post) {
      rates.push_back(static_cast<double>(spec.burst_bytes()) / (sp.last_arrival - sp.first_post) *
                      1e9);
    }
    for (const Message& m : ms) {
      s.min_latency_ns[m.index] = std::min(s.min_latency_ns[m.index], m.latency_ns());
    }
    solos.push_back(std::move(ms));
  }
  s.rounds = static_cast<uint32_t>(solos.size());
  s.rate_Bps = median(rates);
  s.bct_ns = median(bcts);
  std::vector<double> bases;
  for (const auto& ms : solos) {
    const auto first = std::min_element(
        ms.begin(), ms.end(), [](const auto& a, const auto& b) { return a.post_ns < b.post_ns; });
    const double own = s.rate_Bps > 0 ? static_cast<double>(first->bytes) / s.rate_Bps * 1e9 : 0;
    bases.push_back(std::max(0.0, first->latency_ns() - own));
  }
  s.base_ns = median(bases);
  for (double& v : s.min_latency_ns) {
    if (v == std::numeric_limits<double>::max()) v = 0;
  }
  return s;
}

Iteration iteration_of(const FaninSpec& spec, const Solo& solo, const Round& r, uint32_t index,
                       const ServerTimes& server, const ByRound& workers,
                       const std::vector<ClockModel>& clocks) {
  Iteration it;
  it.kind = r.kind;
  it.iteration = r.iteration;
  const ServerRound& sr = server.rounds[index];
  it.messages = messages_of(spec, index, sr, workers, clocks);
  if (it.messages.empty()) return it;
  const Span sp = span_of(it.messages);
  it.first_post_ns = sp.first_post;
  it.last_arrival_ns = sp.last_arrival;
  it.bct_ns = sp.last_arrival - sp.first_post;
  it.bound_ns = sp.bound;
  for (const Message& m : it.messages) it.bytes += m.bytes;
  it.limit_ns =
      solo.rate_Bps > 0 ? solo.base_ns + static_cast<double>(it.bytes) / solo.rate_Bps * 1e9 : 0;
  it.goodput_Bps = it.bct_ns > 0 ? static_cast<double>(it.bytes) / it.bct_ns * 1e9 : 0;

  // Per worker: its first post, its last arrival.
  std::vector<double> first(workers.size(), std::numeric_limits<double>::max());
  std::vector<double> last(workers.size(), 0);
  for (const Message& m : it.messages) {
    const size_t wi = static_cast<size_t>(m.worker - 1);
    first[wi] = std::min(first[wi], m.post_ns);
    last[wi] = std::max(last[wi], m.arrival_ns);
  }
  double lo = std::numeric_limits<double>::max(), hi = 0;
  for (size_t wi = 0; wi < workers.size(); ++wi) {
    if (last[wi] == 0) continue;
    ++it.workers;
    lo = std::min(lo, first[wi]);
    hi = std::max(hi, first[wi]);
    const double t = last[wi] - first[wi];
    it.worker_goodput_Bps.push_back(t > 0 ? static_cast<double>(spec.burst_bytes()) / t * 1e9 : 0);
  }
  it.skew_ns = hi - lo;
  if (sr.target_ns != 0) it.late_ns = hi - static_cast<double>(sr.target_ns);
  it.jain = jain_index(it.worker_goodput_Bps);

  std::vector<double> lat, slow;
  double peak_delay = 0;
  // The queue the burst met: the smallest delay among the workers' first messages (the one
  // that went first waited only for what was there before the burst).
  std::vector<double> first_delay(workers.size(), -1);
  std::vector<double> first_post_of(workers.size(), std::numeric_limits<double>::max());
  for (const Message& m : it.messages) {
    lat.push_back(m.latency_ns() * 1e-9);
    const double solo_min = solo.min_latency_ns.empty() ? 0 : solo.min_latency_ns[m.index];
    if (solo_min > 0) slow.push_back(m.latency_ns() / solo_min);
    const double delay = std::max(0.0, m.latency_ns() - solo_min);
    peak_delay = std::max(peak_delay, delay);
    const size_t wi = static_cast<size_t>(m.worker - 1);
    if (m.post_ns < first_post_of[wi]) {
      first_post_of[wi] = m.post_ns;
      first_delay[wi] = delay;
    }
  }
  double start_delay = std::numeric_limits<double>::max();
  for (double d : first_delay) {
    if (d >= 0) start_delay = std::min(start_delay, d);
  }
  if (start_delay == std::numeric_limits<double>::max()) start_delay = 0;
  it.latency = summarize_latency(lat);
  it.slowdown = summarize_latency(slow);
  it.queue_start_bytes = start_delay * 1e-9 * solo.rate_Bps;
  it.queue_peak_bytes = peak_delay * 1e-9 * solo.rate_Bps;

  if (spec.pull) {
    double p0 = std::numeric_limits<double>::max(), p1 = 0;
    for (size_t wi = 0; wi < workers.size(); ++wi) {
      const WorkerRound* wr = workers[wi][index];
      if (sr.pull_post_ns[wi].empty() || wr == nullptr) continue;
      for (size_t k = 0; k < spec.burst.size(); ++k) {
        p0 = std::min(p0, static_cast<double>(sr.pull_post_ns[wi][k]));
        p1 = std::max(p1, clocks[wi + 1].to_reference(wr->pull_arrival_ns[k]));
      }
    }
    if (p1 > 0) it.pull_ns = p1 - p0;
  }
  return it;
}

}  // namespace

double jain_index(const std::vector<double>& x) noexcept {
  double sum = 0, sq = 0;
  for (double v : x) {
    sum += v;
    sq += v * v;
  }
  return sq > 0 ? sum * sum / (static_cast<double>(x.size()) * sq) : 0;
}

Analysis analyse(const FaninSpec& spec, const std::vector<Round>& rounds, const ServerTimes& server,
                 const std::vector<std::vector<WorkerRound>>& worker_times,
                 const std::vector<BackgroundTimes>& background,
                 const std::vector<ClockModel>& clocks) {
  Analysis a;
  const ByRound workers = by_round(worker_times, rounds.size());
  a.solo = solo_of(spec, rounds, server, workers, clocks);
  for (uint32_t i = 0; i < rounds.size(); ++i) {
    const Round& r = rounds[i];
    std::vector<Message> solo_messages;
    if (r.kind != RoundKind::solo) {
      a.iterations.push_back(iteration_of(spec, a.solo, r, i, server, workers, clocks));
    } else {
      solo_messages = messages_of(spec, i, server.rounds[i], workers, clocks);
    }
    const std::vector<Message>& ms =
        r.kind == RoundKind::solo ? solo_messages : a.iterations.back().messages;
    for (const Message& m : ms) {
      a.flows.push_back({m.worker, kServer, static_cast<int32_t>(m.index), static_cast<int32_t>(i),
                         m.bytes, m.post_ns, m.latency_ns(), m.bound_ns});
    }
    if (!spec.pull) continue;
    for (size_t wi = 0; wi < workers.size(); ++wi) {
      const WorkerRound* wr = workers[wi][i];
      if (server.rounds[i].pull_post_ns[wi].empty() || wr == nullptr) continue;
      const ClockModel& m = clocks[wi + 1];
      for (size_t k = 0; k < spec.burst.size(); ++k) {
        const double post = static_cast<double>(server.rounds[i].pull_post_ns[wi][k]);
        a.flows.push_back({kServer, static_cast<int32_t>(wi + 1), static_cast<int32_t>(k),
                           static_cast<int32_t>(i), spec.burst[k], post,
                           m.to_reference(wr->pull_arrival_ns[k]) - post, m.uncertainty_ns});
      }
    }
  }
  std::vector<double> bg_lat;
  double bg_first = std::numeric_limits<double>::max(), bg_last = 0;
  for (size_t b = 0; b < background.size(); ++b) {
    const int rank = static_cast<int>(workers.size() + 1 + b);
    const ClockModel& m = clocks[static_cast<size_t>(rank)];
    const auto& posts = background[b].post_ns;
    const auto& arrivals = server.bg_arrival_ns[b];
    for (size_t j = 0; j < std::min(posts.size(), arrivals.size()); ++j) {
      const double post = m.to_reference(posts[j]);
      const double lat = static_cast<double>(arrivals[j]) - post;
      bg_lat.push_back(lat * 1e-9);
      bg_first = std::min(bg_first, post);
      bg_last = std::max(bg_last, static_cast<double>(arrivals[j]));
      a.flows.push_back(
          {rank, kServer, -1, static_cast<int32_t>(j), spec.bg_size, post, lat, m.uncertainty_ns});
    }
  }
  a.background_messages = bg_lat.size();
  a.background_latency = summarize_latency(bg_lat);
  if (bg_last > bg_first) {
    a.background_Bps =
        static_cast<double>(bg_lat.size() * spec.bg_size) / (bg_last - bg_first) * 1e9;
  }
  return a;
}

}  // namespace dlcnet::fanin
