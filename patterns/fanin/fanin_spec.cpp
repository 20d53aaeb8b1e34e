#include "patterns/fanin/fanin_spec.hpp"

#include <cstring>
#include <numeric>

#include "launch/rank_env.hpp"

namespace dlcnet::fanin {

uint64_t FaninSpec::burst_bytes() const noexcept {
  return std::accumulate(burst.begin(), burst.end(), uint64_t{0});
}

std::vector<uint64_t> FaninSpec::burst_offsets() const {
  std::vector<uint64_t> o(burst.size());
  uint64_t at = 0;
  for (size_t k = 0; k < burst.size(); ++k) {
    o[k] = at;
    at += burst[k];
  }
  return o;
}

uint64_t FaninSpec::fingerprint() const noexcept {
  std::string s = "fanin/1";
  auto add = [&](uint64_t v) { s += "/" + std::to_string(v); };
  add(static_cast<uint64_t>(background));
  add(burst.size());
  for (uint64_t b : burst) add(b);
  add(static_cast<uint64_t>(op));
  add(pull);
  add(iterations);
  add(warmup);
  add(solo);
  add(static_cast<uint64_t>(gap_us * 1000));
  add(static_cast<uint64_t>(release));
  add(bg_size);
  add(bg_window);
  add(static_cast<uint64_t>(bg_lead_ms * 1000));
  return stable_hash(s);
}

std::vector<Round> schedule(const FaninSpec& s, int workers) {
  std::vector<Round> out;
  for (int w = 1; w <= workers; ++w) {
    for (uint32_t i = 0; i < s.solo; ++i) out.push_back({RoundKind::solo, i, w});
  }
  for (uint32_t i = 0; i < s.warmup; ++i) out.push_back({RoundKind::warmup, i, 0});
  for (uint32_t i = 0; i < s.iterations; ++i) out.push_back({RoundKind::incast, i, 0});
  return out;
}

bool takes_part(const Round& r, int rank) noexcept {
  return r.kind != RoundKind::solo || r.solo_worker == rank;
}

const char* to_string(RoundKind k) noexcept {
  switch (k) {
    case RoundKind::solo:
      return "solo";
    case RoundKind::warmup:
      return "warmup";
    case RoundKind::incast:
      return "incast";
  }
  return "?";
}

}  // namespace dlcnet::fanin
