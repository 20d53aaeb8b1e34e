// A file read through a read-only memory map, its pages given back behind the reader: a reader
// that walks the bytes front to back (twice, if it likes) holds at most a window of the file in
// memory, not the whole file. A file that another process shrinks while it is mapped does not
// end the process (SIGBUS on the pages past its new end): a SIGBUS handler puts zero pages there
// and shrank() says so, for the reader to report the file as changed while it was read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dlcnet::trace::chakra {

class MappedFile {
 public:
  // Pages are given back in steps of at least this many bytes (a multiple of the page size).
  static constexpr size_t kDefaultWindow = size_t{4} << 20;

  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Maps `path`; false with the reason in `error` (strerror's) when it cannot be opened, is not
  // a regular file or cannot be mapped. An empty file maps to no bytes.
  bool open(const std::string& path, std::string& error, size_t window = kDefaultWindow);
  std::string_view bytes() const noexcept { return {data_, size_}; }

  // The reader is past every byte before `offset`: the pages wholly before it may go (they are
  // read again from the file if touched later). Cheap when there is less than a window to give.
  void passed(size_t offset) noexcept {
    if (offset >= given_back_ + window_ || offset < given_back_) give_back(offset);
  }
  // How many times pages were given back (for tests).
  size_t give_backs() const noexcept { return give_backs_; }
  // Whether a page of the map was past the file's end when touched: the file shrank while it
  // was mapped, and those bytes read as zeros.
  bool shrank() const noexcept;

 private:
  void give_back(size_t offset) noexcept;

  const char* data_ = nullptr;
  size_t size_ = 0;
  size_t window_ = kDefaultWindow;
  size_t given_back_ = 0;  // the pages before this offset are given back (page-aligned)
  size_t give_backs_ = 0;
  int slot_ = -1;  // in the SIGBUS handler's table of maps
};

}  // namespace dlcnet::trace::chakra
