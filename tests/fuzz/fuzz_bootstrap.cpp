// libFuzzer target: the TCP bootstrap's decoders of what a peer sends once a frame has arrived
// (fuzz_wire covers the frames themselves): rank 0's reading of a connection's hello
// (decode_hello), a collective's blobs (decode_blobs, both directions), a failing rank's report
// (read_report) and the reasons of a reject or an abort. The first byte picks the decoder, the
// second its parameters (world size, round, blob count), the third the frame type; the rest is
// the payload. Every failure is an Error; what is accepted is what the peer could have sent.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/tcp_bootstrap_impl.hpp"
#include "core/wire.hpp"

namespace {

constexpr uint64_t kToken = 0x5eed5eed12345678ULL;

void hello(const dlcnet::Frame& f, uint8_t param) {
  const int size = 1 + param % 16;
  auto joined = [](int r) { return r % 3 == 0; };
  std::string reason;
  const int rank = dlcnet::decode_hello(f, "fuzz peer", kToken, size, joined, reason);
  if (rank == -1) {
    if (reason.empty()) __builtin_trap();  // turned away without a reason
    return;
  }
  // Accepted: exactly a hello of this job, from a rank in range not yet joined.
  if (!reason.empty() || f.type != dlcnet::kHello || f.payload.size() != 16) __builtin_trap();
  if (rank <= 0 || rank >= size || joined(rank)) __builtin_trap();
  dlcnet::WireReader r(f.payload, "check");
  if (static_cast<int>(r.u32("rank")) != rank || static_cast<int>(r.u32("size")) != size ||
      r.u64("token") != kToken) {
    __builtin_trap();
  }
}

void collective(const dlcnet::Frame& f, uint8_t param) {
  const uint64_t round = param % 4;
  const size_t count = param / 4 % 16;
  try {
    const std::vector<dlcnet::Bytes> blobs = dlcnet::decode_blobs(f.payload, round, count, "peer");
    if (blobs.size() != count) __builtin_trap();
    size_t bytes = 12;  // round, count
    for (const dlcnet::Bytes& b : blobs) bytes += 4 + b.size();
    if (bytes != f.payload.size()) __builtin_trap();  // every byte accounted for
  } catch (const dlcnet::Error&) {
  }
}

void report(const dlcnet::Frame& f) {
  try {
    const dlcnet::FailureReport rep = dlcnet::read_report(3, f, "rank 3", 16);
    if (rep.rank != 3 || rep.why.size() > 4096 || rep.phase.size() > 4096) __builtin_trap();
    for (int w : rep.waited_on)
      if (w < 0 || w >= 16) __builtin_trap();  // a rank of the world
    if (rep.waited_on.size() > dlcnet::kWaitedMax) __builtin_trap();
    (void)dlcnet::failure_text("rank 3", "failed", rep.phase, rep.why);
  } catch (const dlcnet::Error&) {
  }
}

void reason(const dlcnet::Frame& f) {
  try {
    dlcnet::WireReader r(f.payload, "coordinator");  // a reject's reason (join)
    if (r.str("reason", dlcnet::kReasonMax).size() > dlcnet::kReasonMax) __builtin_trap();
  } catch (const dlcnet::Error&) {
  }
  try {
    dlcnet::WireReader r(f.payload, "coordinator");  // an abort's verdict (throw_verdict)
    (void)r.str("reason");
  } catch (const dlcnet::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  dlcnet::Frame f;
  f.type = data[2];
  f.payload.assign(data + 3, data + size);
  switch (data[0] % 4) {
    case 0:
      hello(f, data[1]);
      break;
    case 1:
      collective(f, data[1]);
      break;
    case 2:
      report(f);
      break;
    default:
      reason(f);
      break;
  }
  return 0;
}
