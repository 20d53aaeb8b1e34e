#include "core/idle.hpp"

namespace dlcnet {

const char* to_string(Idle i) noexcept {
  switch (i) {
    case Idle::spin:
      return "spin";
    case Idle::yield:
      return "yield";
    case Idle::sleep:
      return "sleep";
    case Idle::block:
      return "block";
  }
  return "?";
}

}  // namespace dlcnet
