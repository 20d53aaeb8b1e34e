#include "patterns/p2p/bench_spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "core/wire.hpp"

namespace dlcnet {

const char* to_string(BenchKind k) noexcept {
  return k == BenchKind::lat ? "lat" : "bw";
}

Bytes BenchSpec::encode() const {
  WireWriter w;
  write_blob_tag(w, "bench-spec", 1);
  uint64_t dur_bits;
  std::memcpy(&dur_bits, &duration_s, sizeof dur_bits);
  w.u8(static_cast<uint8_t>(kind)).u8(static_cast<uint8_t>(op)).u64(iterations).u64(dur_bits);
  w.u64(warmup).u32(tx_depth).u32(static_cast<uint32_t>(timeout_s));
  w.u32(static_cast<uint32_t>(sizes.size()));
  for (uint64_t s : sizes) w.u64(s);
  return w.take();
}

BenchSpec BenchSpec::decode(const Bytes& b, const std::string& from) {
  WireReader r(b, "test description from " + from);
  check_blob_tag(r, "bench-spec", 1);
  BenchSpec s;
  uint8_t kind = r.u8("kind");
  uint8_t op = r.u8("op");
  if (kind > 1 || op > static_cast<uint8_t>(Op::read))
    throw ProtocolError(from + ": unknown test or operation code");
  s.kind = static_cast<BenchKind>(kind);
  s.op = static_cast<Op>(op);
  s.iterations = r.u64("iterations");
  uint64_t dur_bits = r.u64("duration");
  std::memcpy(&s.duration_s, &dur_bits, sizeof dur_bits);
  s.warmup = r.u64("warmup");
  s.tx_depth = r.u32("tx_depth");
  s.timeout_s = static_cast<int>(r.u32("timeout"));
  uint32_t n = r.u32("size count");
  if (n > 64)
    throw ProtocolError(from + ": " + std::to_string(n) + " sizes is more than a sweep has");
  for (uint32_t i = 0; i < n; ++i) s.sizes.push_back(r.u64("size"));
  r.expect_end();
  // The server adopts these: only what the client's own options accept (a nan duration made
  // an int overflow of the server's deadline).
  if (!std::isfinite(s.duration_s) || s.duration_s < 0 || s.duration_s > 7 * 86400.0) {
    throw ProtocolError(from + ": duration " + std::to_string(s.duration_s) +
                        " s is not one a client sends");
  }
  if (s.timeout_s < 1 || s.timeout_s > 7 * 86400 || s.tx_depth < 1 || s.tx_depth > (1u << 16)) {
    throw ProtocolError(from + ": timeout or tx depth out of range");
  }
  return s;
}

uint64_t BenchSpec::max_size() const {
  return sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
}

}  // namespace dlcnet
