#pragma once

#include <cstdint>
#include <vector>

namespace dlcnet {

using Bytes = std::vector<uint8_t>;

}  // namespace dlcnet
