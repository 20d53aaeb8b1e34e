#include "core/transport.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"

namespace dlcnet {

void Transport::FreeDeleter::operator()(uint8_t* p) const noexcept {
  std::free(p);
}

Allocation Transport::allocate_memory(size_t length) {
  constexpr size_t kPage = 4096;
  const size_t rounded = (std::max<size_t>(length, 1) + kPage - 1) / kPage * kPage;
  std::unique_ptr<uint8_t, FreeDeleter> mem(
      static_cast<uint8_t*>(std::aligned_alloc(kPage, rounded)));
  if (!mem)
    throw Error(std::string(name()) + ": cannot allocate " + std::to_string(length) + " bytes");
  std::memset(mem.get(), 0, rounded);
  const RegionId id = register_memory(mem.get(), length);
  Allocation a{mem.get(), id};
  allocations_.push_back(std::move(mem));
  return a;
}

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
