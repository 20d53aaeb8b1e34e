// A fixed-capacity array whose memory the kernel provides only as it is first touched: one
// anonymous mapping, zero pages until written. A transport sizes its bookkeeping for the most it
// could ever hold (every peer's depth: 255 peers x 640 operations is 7.8 MB per rank), but a job
// touches the part it uses; 256 ranks on one host each zeroing the whole of theirs spent
// seconds of the set-up in page faults.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace dlcnet {

template <class T>
class LazyArray {
  static_assert(std::is_trivially_destructible_v<T>, "elements are never destroyed one by one");

 public:
  LazyArray() = default;
  // Reserves `count` elements; none exists until construct() makes it.
  explicit LazyArray(size_t count) : size_(count) {
    if (count == 0) return;
    void* p = ::mmap(nullptr, bytes(), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // Pages, not transparent huge pages: with THP "always" (Debian's guest kernel) the first
    // write would make 2 MiB resident at once.
    (void)::madvise(p, bytes(), MADV_NOHUGEPAGE);
    data_ = static_cast<T*>(p);
  }
  ~LazyArray() { release(); }
  LazyArray(LazyArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  LazyArray& operator=(LazyArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  LazyArray(const LazyArray&) = delete;
  LazyArray& operator=(const LazyArray&) = delete;

  // Makes element i (again) from `args`: its page is touched from here on.
  template <class... A>
  T& construct(size_t i, A&&... args) {
    return *std::construct_at(data_ + i, std::forward<A>(args)...);
  }
  T& operator[](size_t i) noexcept { return data_[i]; }
  const T& operator[](size_t i) const noexcept { return data_[i]; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  size_t size() const noexcept { return size_; }
  size_t bytes() const noexcept { return size_ * sizeof(T); }

 private:
  void release() noexcept {
    if (data_ != nullptr) ::munmap(data_, bytes());
    data_ = nullptr;
  }
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace dlcnet
