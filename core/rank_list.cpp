#include "core/rank_list.hpp"

namespace dlcnet {

std::string rank_list(std::span<const int> ranks, size_t shown) {
  std::string s;
  for (size_t i = 0; i < ranks.size() && i < shown; ++i)
    s += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > shown) s += ", ... (" + std::to_string(ranks.size()) + " in all)";
  return s;
}

}  // namespace dlcnet
