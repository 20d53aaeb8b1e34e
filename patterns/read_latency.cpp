// RDMA read latency, as ib_read_lat: the initiator reads the responder's buffer and waits for
// each read to complete; the responder only progresses its transport until the end of run. Latency
// is the whole round trip.
#include "core/clock.hpp"
#include "patterns/pattern.hpp"

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
    uint64_t i = 0;
    for (int64_t t0 = now_ns(); !plan.done(i, t0); t0 = now_ns(), ++i) {
      s.check(s.transport().post_read(s.peer(), s.region(), s.in_offset(), size, s.out_offset(), i,
                                      true),
              "read");
      s.wait_completion("an RDMA read");
      if (out) {
        out->post_ns.push_back(t0);
        out->complete_ns.push_back(now_ns());
        out->signaled.push_back(1);
      }
    }
    s.signal_done();
  }
};

}  // namespace

std::unique_ptr<Pattern> make_read_latency() {
  return std::make_unique<ReadLatency>();
}

}  // namespace dlcnet
