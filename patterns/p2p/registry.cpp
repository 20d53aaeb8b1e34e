#include "core/error.hpp"
#include "patterns/p2p/pattern.hpp"

namespace dlcnet {

std::unique_ptr<Pattern> make_pattern(BenchKind kind, Op op) {
  if (op == Op::recv) throw Error("--op recv is not a test: use send");
  if (kind == BenchKind::lat) return op == Op::read ? make_read_latency() : make_pingpong_latency();
  return make_stream_bandwidth();
}

}  // namespace dlcnet
