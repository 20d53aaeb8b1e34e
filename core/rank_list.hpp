// Ranks named in a message: "3", "1, 4, 9", or the first `shown` of many and the count,
// "0, 1, 2, ... (255 in all)", so a verdict about hundreds of ranks stays one readable line.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace dlcnet {

std::string rank_list(std::span<const int> ranks, size_t shown = 16);

}  // namespace dlcnet
