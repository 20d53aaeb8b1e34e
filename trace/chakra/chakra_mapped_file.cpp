#include "trace/chakra/chakra_mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dlcnet::trace::chakra {

MappedFile::~MappedFile() {
  if (data_ != nullptr) munmap(const_cast<char*>(data_), size_);
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
