#include "trace/chakra/chakra_node_store.hpp"

#include <algorithm>
#include <limits>

#include "core/error.hpp"
#include "trace/chakra/chakra_model.hpp"

namespace dlcnet::trace::chakra {
namespace {

uint32_t count(size_t n, const char* what) {
  if (n > std::numeric_limits<uint32_t>::max()) {
    throw Error(std::string("a Chakra node with more than 2^32-1 ") + what);
  }
  return static_cast<uint32_t>(n);
}

}  // namespace

void NodeStore::set_name(Node& n, std::string_view name) {
  n.name_size_ = count(name.size(), "bytes of name");
  char* p = text_.allocate(name.size());
  std::copy(name.begin(), name.end(), p);
  n.name_ = p;
}

void NodeStore::set_pg_name(Node& n, std::string_view pg_name) {
  if (pg_name.empty()) {
    n.pg_name_ = nullptr;
    return;
  }
  auto it = pg_names_.find(pg_name);
  if (it == pg_names_.end()) it = pg_names_.emplace(pg_name).first;
  n.pg_name_ = &*it;
}

void NodeStore::set_deps(Node& n, std::span<const uint64_t> ctrl, std::span<const uint64_t> data) {
  n.n_ctrl_ = count(ctrl.size(), "control dependencies");
  n.n_data_ = count(data.size(), "data dependencies");
  uint64_t* p = ids_.allocate(ctrl.size() + data.size());
  std::copy(data.begin(), data.end(), std::copy(ctrl.begin(), ctrl.end(), p));
  n.deps_ = p;
}

uint64_t NodeStore::bytes() const noexcept {
  // A tree node: three pointers and a colour, then the string (and its heap block, if any).
  constexpr uint64_t kTreeNode = 4 * sizeof(void*) + sizeof(std::string);
  uint64_t b = text_.bytes() + ids_.bytes();
  for (const std::string& s : pg_names_) {
    const auto* self = reinterpret_cast<const char*>(&s);
    const bool inside = s.data() >= self && s.data() < self + sizeof s;
    b += kTreeNode + (inside ? 0 : s.capacity() + 1);
  }
  return b;
}

}  // namespace dlcnet::trace::chakra
