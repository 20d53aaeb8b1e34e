// Streaming bandwidth, as ib_write_bw / ib_send_bw / ib_read_bw: the initiator keeps tx_depth
// operations in flight, signalling one in every `signal_every`; an unsignaled message's
// completion time is that of the signaled completion that retires it (RC completes in order).
// "In flight" is the transport's send credit (TransportOptions::send_depth = tx_depth): it
// posts until the transport answers busy. Over verbs a credit comes back with the signaled
// completion that retires it, as in perftest; over UCX an unsignaled message's credit comes
// back when UCX completes it locally, as ucx_perftest -O counts its outstanding requests, and
// a signaled one's when it is complete at the target.
// The responder keeps receives posted (send) or just progresses (write, read) until the
// initiator's zero-length end-of-run message; in a one-sided run the initiator's heartbeats
// (PeerSession::beat) keep the responder's wait from running out while the run lasts.
#include <array>

#include "core/clock.hpp"
#include "core/stop_budget.hpp"
#include "patterns/p2p/pattern.hpp"

namespace dlcnet {
namespace {

class StreamBandwidth final : public Pattern {
 public:
  void run(PeerSession& s, uint64_t size, const RunPlan& plan, Measurement* out) override {
    const Op op = s.spec().op;
    if (!s.initiator()) {
      if (op == Op::send) {
        serve_receives(s);
      } else {
        s.serve_until_done();
      }
      return;
    }
    Transport& t = s.transport();
    const uint32_t depth = std::max<uint32_t>(1, s.spec().tx_depth);
    const uint32_t signal_every = std::max<uint32_t>(1, std::min<uint32_t>(64, depth / 2));
    const bool one_sided = op != Op::send;
    Measurement local;
    Measurement& m = out ? *out : local;
    uint64_t posted = 0, retired = 0;
    bool last_posted = false;
    std::array<Completion, 16> comps;
    const int64_t limit = std::chrono::nanoseconds(s.stall_limit()).count();
    int64_t last_progress = now_ns();
    while (!last_posted || retired < posted) {
      while (!last_posted) {
        const int64_t now = now_ns();
        if (one_sided) s.beat(now);
        plan.tick(posted, now);
        // In duration mode the run ends at the deadline; the message posted then is the last.
        const bool last = plan.until_ns ? now >= plan.until_ns : posted + 1 == plan.count;
        const bool signaled = last || (posted + 1) % signal_every == 0;
        Status st = post(t, s, op, size, posted, signaled);
        if (st == Status::busy) break;
        s.check(st, to_string(op));
        m.post_ns.push_back(now);
        m.complete_ns.push_back(0);
        m.signaled.push_back(signaled ? 1 : 0);
        ++posted;
        last_posted = last;
      }
      int n = t.poll(comps);
      if (n < 0) s.fail("bandwidth run: " + t.last_error());
      if (n > 0) {
        const int64_t now = now_ns();
        last_progress = now;
        for (int k = 0; k < n; ++k) {
          const Completion& c = comps[k];
          if (!c.ok) s.failed_completion(c);
          if (PeerSession::is_beat(c)) continue;
          for (; retired <= c.wr_id; ++retired) m.complete_ns[retired] = now;
        }
      } else {
        const int64_t now = now_ns();
        if (one_sided) s.beat(now);  // also while the last ones drain
        if (now - last_progress > limit) {
          s.fail("no completion for " + seconds_text(s.stall_limit()) +
                 " in a bandwidth run (peer gone?)");
        }
      }
    }
    s.signal_done();
  }

 private:
  static Status post(Transport& t, PeerSession& s, Op op, uint64_t size, uint64_t id,
                     bool signaled) noexcept {
    switch (op) {
      case Op::write:
        return t.post_write(s.peer(), s.region(), s.out_offset(), size, s.in_offset(), id,
                            signaled);
      case Op::read:
        return t.post_read(s.peer(), s.region(), s.in_offset(), size, s.out_offset(), id, signaled);
      default:
        return t.post_send(s.peer(), s.region(), s.out_offset(), size, id, signaled);
    }
  }

  static void serve_receives(PeerSession& s) {
    const uint32_t depth = s.spec().tx_depth + 16;
    for (;;) {
      s.top_up_receives(depth);
      Completion c = s.wait_completion("bandwidth sends");
      if (c.op != Op::recv) continue;
      s.on_receive_consumed();
      if (c.bytes == 0) return;
    }
  }
};

}  // namespace

std::unique_ptr<Pattern> make_stream_bandwidth() {
  return std::make_unique<StreamBandwidth>();
}

}  // namespace dlcnet
