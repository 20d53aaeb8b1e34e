#include "trace/chakra/chakra_mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace dlcnet::trace::chakra {
namespace {

// The maps a SIGBUS may come from, for the handler (lock-free: a signal may interrupt anything).
constexpr int kSlots = 64;
struct Slot {
  std::atomic<uintptr_t> begin{0}, end{0};
  std::atomic<bool> shrank{false};
};
Slot g_slots[kSlots];
struct sigaction g_previous {};

// A SIGBUS in one of the maps (a page past the file's shortened end): a zero page there, the map
// marked, and the access retried. Any other SIGBUS: the handler before ours, raised again.
void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& s : g_slots) {
    if (addr >= s.begin.load() && addr < s.end.load()) {
      const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
      void* at = reinterpret_cast<void*>(addr - addr % page);
      if (mmap(at, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
        s.shrank.store(true);
        return;
      }
    }
  }
  if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(sig, info, context);
    return;
  }
  sigaction(SIGBUS, &g_previous, nullptr);  // returning faults again, with the old action
}

int take_slot(const char* data, size_t size) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &g_previous);
  });
  for (int i = 0; i < kSlots; ++i) {
    uintptr_t free = 0;
    if (g_slots[i].begin.compare_exchange_strong(free, reinterpret_cast<uintptr_t>(data))) {
      g_slots[i].shrank.store(false);
      g_slots[i].end.store(reinterpret_cast<uintptr_t>(data) + size);
      return i;
    }
  }
  return -1;  // more maps than slots at once: that one is not guarded
}

}  // namespace

MappedFile::~MappedFile() {
  if (slot_ >= 0) {
    g_slots[slot_].end.store(0);
    g_slots[slot_].begin.store(0);
  }
  if (data_ != nullptr) munmap(const_cast<char*>(data_), size_);
}

bool MappedFile::shrank() const noexcept {
  return slot_ >= 0 && g_slots[slot_].shrank.load();
}

bool MappedFile::open(const std::string& path, std::string& error, size_t window) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  struct stat st {};
  bool ok = fstat(fd, &st) == 0;
  if (!ok) error = std::strerror(errno);
  if (ok && !S_ISREG(st.st_mode)) {
    error = "not a regular file";
    ok = false;
  }
  if (ok && st.st_size > 0) {
    void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      error = std::strerror(errno);
      ok = false;
    } else {
      data_ = static_cast<const char*>(p);
      size_ = static_cast<size_t>(st.st_size);
      slot_ = take_slot(data_, size_);
      madvise(p, size_, MADV_SEQUENTIAL);
    }
  }
  ::close(fd);
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  window_ = window < page ? page : window - window % page;
  return ok;
}

void MappedFile::give_back(size_t offset) noexcept {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t end = offset - offset % page;
  if (end > given_back_) {
    // MADV_DONTNEED on a private mapping never written: the pages go, the file stays.
    madvise(const_cast<char*>(data_) + given_back_, end - given_back_, MADV_DONTNEED);
    ++give_backs_;
  }
  given_back_ = end;  // back at an earlier offset: the reader starts over from there
}

}  // namespace dlcnet::trace::chakra
