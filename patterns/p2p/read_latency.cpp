// RDMA read latency, as ib_read_lat: the initiator reads the responder's buffer and waits for
// each read to complete; the responder only progresses its transport until the end of run, kept
// waiting by the initiator's heartbeats (PeerSession::beat). Latency is the whole round trip.
#include "core/clock.hpp"
#include "patterns/p2p/pattern.hpp"

namespace dlcnet {
namespace {

class ReadLatency final : public Pattern {
 public:
  double latency_factor() const noexcept override { return 1.0; }

  void run(PeerSession& s, uint64_t size, const RunPlan& plan, Measurement* out) override {
    if (!s.initiator()) {
      s.serve_until_done();
      return;
    }
    int64_t t0 = now_ns();  // one clock read per iteration, as in the ping-pong
    for (uint64_t i = 0; !plan.done(i, t0); ++i) {
      s.beat(t0);
      s.post("read", [&] {
        return s.transport().post_read(s.peer(), s.region(), s.in_offset(), size, s.out_offset(), i,
                                       true);
      });
      s.wait_completion("an RDMA read");
      const int64_t t1 = now_ns();
      if (out) out->add(t0, t1, true);
      t0 = t1;
    }
    s.signal_done();
  }
};

}  // namespace

std::unique_ptr<Pattern> make_read_latency() {
  return std::make_unique<ReadLatency>();
}

}  // namespace dlcnet
