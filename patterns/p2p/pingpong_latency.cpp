// Ping-pong latency over send/recv or RDMA write, as ib_send_lat / ib_write_lat: the initiator
// sends a ping, the responder answers as soon as it sees it; latency = half the round trip.
// Write pings are detected by polling the last byte of the in area (the marker), as perftest.
#include "core/clock.hpp"
#include "patterns/p2p/pattern.hpp"

namespace dlcnet {
namespace {

class PingPongLatency final : public Pattern {
 public:
  void run(PeerSession& s, uint64_t size, const RunPlan& plan, Measurement* out) override {
    const Op op = s.spec().op;
    const char* const op_name = to_string(op);
    const uint32_t signal_every = std::max<uint32_t>(1, s.spec().tx_depth / 2);
    uint64_t sent = 0;
    uint32_t until_signal = signal_every;  // a countdown, not a division per ping
    auto ping = [&](uint8_t marker) {
      s.out()[size - 1] = marker;
      ++sent;
      const bool signaled = --until_signal == 0;
      if (signaled) until_signal = signal_every;
      Transport& t = s.transport();
      s.post(op_name, [&] {
        return op == Op::write
                   ? t.post_write(s.peer(), s.region(), s.out_offset(), size, s.in_offset(), sent,
                                  signaled)
                   : t.post_send(s.peer(), s.region(), s.out_offset(), size, sent, signaled);
      });
    };
    // Waits for the peer's message carrying `marker` (or the stop marker); returns the marker.
    auto await = [&](uint8_t marker) -> uint8_t {
      if (op == Op::write) return s.wait_byte(size - 1, marker, kStopMarker, "a ping-pong write");
      for (;;) {
        Completion c = s.wait_completion("a ping-pong receive");
        if (c.op != Op::recv) continue;  // a signaled send's completion
        s.on_receive_consumed();
        return s.in()[size - 1];
      }
    };
    // Two receives stay posted, so each side answers first and posts the next receive while
    // its message travels: re-posting is never on the round trip's path, and a receive is
    // always posted before the peer's next message can arrive (no RNR wait on verbs).
    constexpr uint32_t kRecvDepth = 2;
    auto refill = [&] {
      if (op == Op::send) s.top_up_receives(kRecvDepth);
    };
    refill();
    if (s.initiator()) {
      // One clock read per iteration: the reply's arrival is the next ping's post time. Each
      // round trip is recorded once the next ping is on its way, off the round trip's path.
      int64_t t0 = now_ns();
      int64_t prev_t0 = 0;
      int64_t prev_t1 = 0;
      uint64_t i = 0;
      for (; !plan.done(i, t0); ++i) {
        const uint8_t m = marker_for(i);
        ping(m);
        if (out && i > 0) out->add(prev_t0, prev_t1, true);
        refill();
        await(m);
        prev_t0 = t0;
        prev_t1 = t0 = now_ns();
      }
      ping(kStopMarker);
      if (out && i > 0) out->add(prev_t0, prev_t1, true);
      await(kStopMarker);
    } else {
      for (uint64_t i = 0;; ++i) {
        const uint8_t m = await(marker_for(i));
        ping(m);
        if (m == kStopMarker) break;
        refill();
      }
    }
    s.drain();
  }
};

}  // namespace

std::unique_ptr<Pattern> make_pingpong_latency() {
  return std::make_unique<PingPongLatency>();
}

}  // namespace dlcnet
