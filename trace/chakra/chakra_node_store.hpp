// Where a rank's nodes keep their names, process-group names and dependency lists
// (chakra_model.hpp): blocks that are never moved or freed while the store lives, so what a node
// points to stays valid when its Rank is moved. Move-only: a copy of a Rank would point into the
// original's store.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlcnet::trace::chakra {

struct Node;

// Arrays of T carved out of blocks of 4 KiB growing to 64 KiB (as large as the blocks held so
// far, at most 64 KiB: little left idle at the end), each kept until the arena goes.
template <class T>
class BlockArena {
 public:
  BlockArena() = default;
  BlockArena(BlockArena&& o) noexcept { swap(o); }
  BlockArena& operator=(BlockArena&& o) noexcept {
    swap(o);
    return *this;
  }

  // Room for `n` elements, uninitialised; nullptr for 0.
  T* allocate(size_t n) {
    if (n == 0) return nullptr;
    if (n > free_) {
      const size_t size = std::max(n, std::clamp(held_, kMinBlock, kMaxBlock));
      blocks_.push_back(std::make_unique_for_overwrite<T[]>(size));
      next_ = blocks_.back().get();
      free_ = size;
      held_ += size;
    }
    T* p = next_;
    next_ += n;
    free_ -= n;
    return p;
  }

  // The bytes held: the blocks and the list of them.
  uint64_t bytes() const noexcept {
    return held_ * sizeof(T) + blocks_.capacity() * sizeof(std::unique_ptr<T[]>);
  }

 private:
  static constexpr size_t kMinBlock = 4096 / sizeof(T);
  static constexpr size_t kMaxBlock = (size_t{64} << 10) / sizeof(T);

  void swap(BlockArena& o) noexcept {
    blocks_.swap(o.blocks_);
    std::swap(next_, o.next_);
    std::swap(free_, o.free_);
    std::swap(held_, o.held_);
  }

  std::vector<std::unique_ptr<T[]>> blocks_;
  T* next_ = nullptr;
  size_t free_ = 0;  // elements left after next_ in the last block
  size_t held_ = 0;  // elements in all blocks
};

class NodeStore {
 public:
  NodeStore() = default;
  NodeStore(NodeStore&&) = default;
  NodeStore& operator=(NodeStore&&) = default;

  // A copy of `name` as n's name.
  void set_name(Node& n, std::string_view name);
  // `pg_name` as n's process group, kept once per distinct name.
  void set_pg_name(Node& n, std::string_view pg_name);
  // Copies of both lists as n's dependencies. Throws Error past 2^32-1 entries in a list.
  void set_deps(Node& n, std::span<const uint64_t> ctrl, std::span<const uint64_t> data);

  // The bytes held: blocks, and the process-group names with their tree nodes.
  uint64_t bytes() const noexcept;

 private:
  BlockArena<char> text_;
  BlockArena<uint64_t> ids_;
  std::set<std::string, std::less<>> pg_names_;
};

}  // namespace dlcnet::trace::chakra
