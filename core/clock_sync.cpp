#include "core/clock_sync.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>

#include "core/clock.hpp"
#include "core/deadline.hpp"
#include "core/error.hpp"
#include "core/stop_budget.hpp"
#include "core/wire.hpp"

namespace dlcnet {
namespace {

constexpr size_t kPingBytes = 8;
// wr_ids of the clock traffic: distinct from the engine's (it runs before and after only).
constexpr uint64_t kPingId = 0xC10C'0000'0000'0001ull;

class Pinger {
 public:
  Pinger(Transport& t, RegionId region, std::chrono::milliseconds timeout, Idle idle)
      : t_(t),
        region_(region),
        deadline_(Deadline::after(timeout)),
        timeout_(timeout),
        idle_(idle) {}

  void send(int peer) {
    for (;;) {
      const Status s = t_.post_send(peer, region_, 0, kPingBytes, kPingId, true);
      if (s == Status::ok) return;
      if (s == Status::failed) fail(peer, "send: " + t_.last_error());
      wait_any(peer, nullptr);  // busy: make room
    }
  }
  void recv(int peer) {
    if (t_.post_recv(peer, region_, 0, kPingBytes, kPingId) != Status::ok) {
      fail(peer, "post_recv: " + t_.last_error());
    }
  }
  // Polls until a receive completes (the time it was seen is returned); counts sends.
  int64_t wait_recv(int peer) {
    int64_t at = 0;
    while (at == 0) wait_any(peer, &at);
    return at;
  }
  void drain_sends(int peer, uint32_t expected) {
    while (sends_done_ < expected) wait_any(peer, nullptr);
    sends_done_ = 0;
  }

 private:
  void wait_any(int peer, int64_t* recv_at) {
    std::array<Completion, 8> c;
    for (uint32_t spin = 0;; ++spin) {
      const int n = t_.poll(c);
      const int64_t now = now_ns();
      if (n < 0) fail(peer, t_.last_error());
      bool got = false;
      for (int i = 0; i < n; ++i) {
        if (!c[i].ok) fail(c[i].peer, std::string(to_string(c[i].op)) + " failed: " + c[i].error);
        if (c[i].op == Op::recv) {
          if (recv_at != nullptr) *recv_at = now;
        } else {
          ++sends_done_;
        }
        got = true;
      }
      if (got) {
        last_ = now;
        return;
      }
      // Block behaves as yield here: the offset is taken from the fastest round trip.
      if ((idle_ == Idle::yield || idle_ == Idle::block) && (spin & 63) == 63) sched_yield();
      // Sleeping only long after the last answer: a rank waiting for its turn naps, a rank in
      // the middle of its ping-pongs does not. Ranks that share CPUs (any policy but spin) nap
      // too: dozens of ranks yielding to each other while they wait would leave rank 0 and the
      // rank it is measuring a small share of the CPUs (set-up time grew as N squared).
      // The first ping of a rank's turn waits at most one nap; the estimate takes the fastest
      // round trip anyway.
      if (idle_ != Idle::spin) nap_when_quiet(now - last_);
      if ((spin & 1023) == 1023 && deadline_.expired()) {
        fail(peer, "no answer within " + seconds_text(timeout_));
      }
    }
  }
  [[noreturn]] void fail(int peer, const std::string& what) {
    throw Error("clock synchronisation with rank " + std::to_string(peer) + ": " + what);
  }

  Transport& t_;
  RegionId region_;
  Deadline deadline_;
  std::chrono::milliseconds timeout_;
  Idle idle_;
  int64_t last_ = now_ns();
  uint32_t sends_done_ = 0;
};

}  // namespace

HostIdentity this_host() {
  HostIdentity h;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  std::ifstream f("/proc/sys/kernel/random/boot_id");
  std::getline(f, h.boot_id);
  return h;
}

std::vector<HostIdentity> exchange_identities(Bootstrap& boot) {
  const HostIdentity me = this_host();
  WireWriter w;
  w.str(me.hostname).str(me.boot_id);
  std::vector<Bytes> all = boot.allgather(w.bytes());
  std::vector<HostIdentity> out;
  for (size_t r = 0; r < all.size(); ++r) {
    WireReader rd(all[r], "host identity of rank " + std::to_string(r));
    HostIdentity h;
    h.hostname = rd.str("hostname");
    h.boot_id = rd.str("boot_id");
    rd.expect_end();
    out.push_back(std::move(h));
  }
  return out;
}

OffsetEstimate link_to_monotonic(uint32_t samples) noexcept {
  OffsetEstimate best;
  for (uint32_t k = 0; k < samples; ++k) {
    const int64_t a = now_ns();
    const int64_t m = monotonic_ns();
    const int64_t b = now_ns();
    if (best.samples++ != 0 && b - a >= best.rtt_ns) continue;
    best.rtt_ns = b - a;
    best.at_ns = static_cast<double>(a) + static_cast<double>(b - a) / 2.0;
    best.offset_ns = best.at_ns - static_cast<double>(m);
    // Half the read window, and at least the clocks' 1 ns resolution.
    best.uncertainty_ns = std::max(1.0, static_cast<double>(b - a) / 2.0);
  }
  return best;
}

OffsetEstimate ClockRound::via_kernel(size_t r) const noexcept {
  OffsetEstimate e;
  e.offset_ns = kernel[r].offset_ns - kernel[0].offset_ns;
  e.uncertainty_ns = r == 0 ? 0 : kernel[r].uncertainty_ns + kernel[0].uncertainty_ns;
  e.rtt_ns = 0;
  e.at_ns = kernel[0].at_ns;
  e.samples = kernel[r].samples;
  return e;
}

std::vector<int> clock_paths(const std::vector<HostIdentity>* hosts, int n) {
  std::vector<int> via(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) {
    via[r] = r;
    if (hosts == nullptr || r == 0) continue;
    const std::string& id = (*hosts)[r].boot_id;
    if (id.empty()) continue;  // an unknown kernel is measured on its own
    if (id == (*hosts)[0].boot_id) {
      via[r] = 0;
      continue;
    }
    for (int l = 1; l < r; ++l) {
      if ((*hosts)[l].boot_id == id) {
        via[r] = l;
        break;
      }
    }
  }
  return via;
}

void compose_via_leaders(ClockRound& round) {
  const int n = static_cast<int>(round.via.size());
  for (int r = 1; r < n; ++r) {
    const int l = round.via[r];
    if (l == r || l == 0) continue;
    OffsetEstimate e = round.pingpong[l];
    e.offset_ns += round.kernel[r].offset_ns - round.kernel[l].offset_ns;
    e.uncertainty_ns += round.kernel[r].uncertainty_ns + round.kernel[l].uncertainty_ns;
    round.pingpong[r] = e;
  }
}

ClockRound measure_offsets(Transport& t, Bootstrap& boot, RegionId region, uint32_t samples,
                           std::chrono::milliseconds timeout, Idle idle,
                           const std::vector<HostIdentity>* hosts) {
  const int n = boot.size();
  const int me = boot.rank();
  const std::vector<int> via = clock_paths(hosts, n);
  auto pinged = [&](int r) { return r > 0 && via[r] == r; };
  Pinger p(t, region, timeout, idle);
  WireWriter w;
  const OffsetEstimate link = link_to_monotonic(samples);
  w.i64(std::llround(link.offset_ns))
      .i64(std::llround(link.uncertainty_ns))
      .i64(std::llround(link.at_ns))
      .u32(link.samples);
  if (me == 0) {
    for (int r = 1; r < n; ++r) {
      if (!pinged(r)) continue;
      for (uint32_t k = 0; k < samples; ++k) {
        p.recv(r);
        const int64_t t0 = now_ns();
        p.send(r);
        const int64_t t1 = p.wait_recv(r);
        w.i64(t0).i64(t1);
      }
      p.drain_sends(r, samples);
    }
  } else if (pinged(me)) {
    for (uint32_t k = 0; k < samples; ++k) p.recv(0);
    for (uint32_t k = 0; k < samples; ++k) {
      w.i64(p.wait_recv(0));
      p.send(0);
    }
    p.drain_sends(0, samples);
  }
  std::vector<Bytes> all = boot.allgather(w.bytes());
  ClockRound round;
  round.via = via;
  round.pingpong.resize(static_cast<size_t>(n));
  round.pingpong[0].samples = samples;
  auto read_link = [&](WireReader& rd) {
    OffsetEstimate k;
    k.offset_ns = static_cast<double>(rd.i64("monotonic offset"));
    k.uncertainty_ns = static_cast<double>(rd.i64("monotonic uncertainty"));
    k.at_ns = static_cast<double>(rd.i64("monotonic at"));
    k.samples = rd.u32("monotonic samples");
    round.kernel.push_back(k);
  };
  WireReader r0(all[0], "clock samples of rank 0");
  read_link(r0);
  std::vector<std::vector<ClockSample>> s(static_cast<size_t>(n));
  for (int r = 1; r < n; ++r) {
    if (!pinged(r)) continue;
    for (uint32_t k = 0; k < samples; ++k) {
      ClockSample c;
      c.t0 = r0.i64("t0");
      c.t1 = r0.i64("t1");
      s[r].push_back(c);
    }
  }
  r0.expect_end();
  for (int r = 1; r < n; ++r) {
    WireReader rr(all[r], "clock samples of rank " + std::to_string(r));
    read_link(rr);
    if (pinged(r)) {
      for (uint32_t k = 0; k < samples; ++k) s[r][k].t_remote = rr.i64("t_remote");
      round.pingpong[r] = estimate_offset(s[r]);
    }
    rr.expect_end();
  }
  compose_via_leaders(round);
  return round;
}

bool same_kernel(const std::vector<HostIdentity>& hosts, size_t r) noexcept {
  return !hosts[r].boot_id.empty() && hosts[r].boot_id == hosts[0].boot_id;
}

std::vector<ClockModel> clock_models(const std::vector<HostIdentity>& hosts,
                                     const ClockRound& before, const ClockRound& after) {
  std::vector<ClockModel> m(hosts.size());
  for (size_t r = 0; r < hosts.size(); ++r) {
    if (r == 0) {
      m[r] = same_clock_model();
    } else if (same_kernel(hosts, r)) {
      m[r] = fit_clock(before.via_kernel(r), after.via_kernel(r));
      m[r].same_clock = true;
    } else {
      m[r] = fit_clock(before.pingpong[r], after.pingpong[r]);
    }
  }
  return m;
}

ClockModel model_before(const std::vector<HostIdentity>& hosts, const ClockRound& before,
                        size_t r) {
  if (r == 0) return same_clock_model();
  if (same_kernel(hosts, r)) {
    ClockModel m = model_from(before.via_kernel(r));
    m.same_clock = true;
    return m;
  }
  return model_from(before.pingpong[r]);
}

std::vector<ClockReport> clock_reports(const std::vector<HostIdentity>& hosts,
                                       const ClockRound& before, const ClockRound& after) {
  const std::vector<ClockModel> models = clock_models(hosts, before, after);
  std::vector<ClockReport> out;
  for (size_t r = 0; r < hosts.size(); ++r) {
    ClockReport c;
    c.host = hosts[r];
    c.before = before.pingpong[r];
    c.after = after.pingpong[r];
    if (r < before.via.size() && before.via[r] != static_cast<int>(r) && before.via[r] != 0) {
      c.via = before.via[r];
    }
    c.model = models[r];
    out.push_back(c);
  }
  return out;
}

}  // namespace dlcnet
