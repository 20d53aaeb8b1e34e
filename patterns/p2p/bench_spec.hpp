// What one dlc-bench run measures. The client's spec is authoritative; the server adopts its
// sizes and counts and checks that the test and operation agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/bytes.hpp"
#include "core/transport.hpp"

namespace dlcnet {

enum class BenchKind : uint8_t { lat, bw };
const char* to_string(BenchKind k) noexcept;

struct BenchSpec {
  BenchKind kind = BenchKind::lat;
  Op op = Op::send;             // send, write or read
  std::vector<uint64_t> sizes;  // one run per size
  uint64_t iterations = 1000;   // per size, when duration_s == 0
  double duration_s = 0;        // -D: run each size this long instead
  uint64_t warmup = 100;        // unmeasured iterations before each size
  uint32_t tx_depth = 128;      // outstanding operations in bw tests
  int timeout_s = 30;           // no progress for this long is an error

  Bytes encode() const;
  static BenchSpec decode(const Bytes& b, const std::string& from);
  uint64_t max_size() const;
};

}  // namespace dlcnet
