#include "trace/trace_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace dlcnet::trace {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

}  // namespace

void prefault(void* p, size_t bytes) noexcept {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<uintptr_t>(p);
  const uintptr_t last = first + bytes;
#ifdef MADV_HUGEPAGE
  const uintptr_t huge_begin = (first + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t huge_end = last & ~(kHugePage - 1);
  if (huge_end > huge_begin) {
    ::madvise(reinterpret_cast<void*>(huge_begin), huge_end - huge_begin, MADV_HUGEPAGE);
  }
#endif
#ifdef MADV_POPULATE_WRITE
  const uintptr_t begin = (first + page - 1) & ~(page - 1);
  const uintptr_t end = last & ~(page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)page;
  (void)last;
#endif
}

}  // namespace dlcnet::trace
