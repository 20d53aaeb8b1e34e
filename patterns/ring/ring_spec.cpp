#include "patterns/ring/ring_spec.hpp"

#include <cmath>

#include "core/error.hpp"

namespace dlcnet::ring {
namespace {

uint64_t mix(uint64_t h, uint64_t v) noexcept {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

}  // namespace

uint64_t RingSpec::fingerprint() const noexcept {
  uint64_t h = 0x52494e47;  // "RING"
  for (char c : collective) h = mix(h, static_cast<uint8_t>(c));
  h = mix(h, static_cast<uint64_t>(static_cast<int64_t>(root)));
  h = mix(h, sizes.size());
  for (uint64_t s : sizes) h = mix(h, s);
  h = mix(h, iterations);
  h = mix(h, warmup);
  h = mix(h, check ? 1 : 0);
  h = mix(h, static_cast<uint64_t>(op));
  h = mix(h, timeout_s);
  h = mix(h, segment_bytes);
  h = mix(h, static_cast<uint64_t>(static_cast<int64_t>(corrupt_rank)));
  h = mix(h, in_place ? 1 : 0);
  return h;
}

std::vector<uint64_t> sweep(uint64_t min, uint64_t max, double factor, uint64_t increment) {
  if (min == 0) throw Error("-b: at least 1 byte");
  if (min > max) throw Error("-b " + std::to_string(min) + " exceeds -e " + std::to_string(max));
  if (increment == 0 && !(factor > 1.0 && std::isfinite(factor))) {
    throw Error("-f: a factor above 1 (or -i with an increment)");
  }
  std::vector<uint64_t> out;
  for (uint64_t s = min; s <= max;) {
    out.push_back(s);
    const double next = increment ? static_cast<double>(s) + static_cast<double>(increment)
                                  : std::floor(static_cast<double>(s) * factor);
    if (next > static_cast<double>(max)) break;
    const auto n = static_cast<uint64_t>(next);
    s = n > s ? n : s + 1;
  }
  return out;
}

}  // namespace dlcnet::ring
