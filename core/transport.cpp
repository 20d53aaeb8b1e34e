#include "core/transport.hpp"

namespace dlcnet {

const char* to_string(Op op) noexcept {
  switch (op) {
    case Op::send:
      return "send";
    case Op::recv:
      return "recv";
    case Op::write:
      return "write";
    case Op::read:
      return "read";
  }
  return "?";
}

}  // namespace dlcnet
