#include "runner/rank_stack.hpp"

#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/tcp_stack.hpp"

namespace dlcnet::runner {

Bytes with_stack(const nlohmann::json& stack, const Bytes& blob) {
  const Bytes text = tcp_stack_bytes(stack);
  const auto n = static_cast<uint32_t>(text.size());
  Bytes out;
  out.reserve(4 + text.size() + blob.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(n >> (8 * i)));
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), blob.begin(), blob.end());
  return out;
}

std::vector<nlohmann::json> take_stacks(std::vector<Bytes>& gathered) {
  std::vector<nlohmann::json> stacks;
  for (size_t r = 0; r < gathered.size(); ++r) {
    Bytes& b = gathered[r];
    const std::string who = "rank " + std::to_string(r) + "'s TCP stack";
    if (b.size() < 4) throw Error(who + ": cut short (" + std::to_string(b.size()) + " bytes)");
    uint32_t n = 0;
    for (int i = 0; i < 4; ++i) n |= static_cast<uint32_t>(b[i]) << (8 * i);
    if (b.size() - 4 < n) throw Error(who + ": cut short (" + std::to_string(n) + " bytes said)");
    nlohmann::json s = tcp_stack_of(std::span<const uint8_t>(b).subspan(4, n));
    if (s.is_null()) throw Error(who + ": not a JSON object");
    stacks.push_back(std::move(s));
    b.erase(b.begin(), b.begin() + 4 + n);
  }
  return stacks;
}

nlohmann::json stacks_json(const std::vector<nlohmann::json>& stacks) {
  nlohmann::json out = nlohmann::json::array();
  std::vector<size_t> first;  // of each entry in `out`: the rank whose stack it is
  for (size_t r = 0; r < stacks.size(); ++r) {
    size_t e = 0;
    while (e < first.size() && stacks[first[e]] != stacks[r]) ++e;
    if (e == first.size()) {
      nlohmann::json entry = {{"ranks", nlohmann::json::array()}};
      entry.update(stacks[r]);
      out.push_back(std::move(entry));
      first.push_back(r);
    }
    out[e]["ranks"].push_back(r);
  }
  return out;
}

}  // namespace dlcnet::runner
