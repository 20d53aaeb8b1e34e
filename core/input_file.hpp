// Every file dlc-compare reads (calibrations, reports, flow lists, fct.txt, flow maps, queue
// series): opened once and read as a stream from its start to its end, so that a pipe,
// /dev/stdin or a FIFO is read like a file, and a format can be sniffed from the first line
// without opening the path a second time (a FIFO's writer is gone after the first open; a pipe
// cannot be opened twice). A directory is refused by name, as is a path that cannot be opened
// or read: "fan.json: cannot open the fan-in report: No such file or directory".
#pragma once

#include <istream>
#include <memory>
#include <string>

namespace dlcnet {

class InputFile {
 public:
  // Opens `path`; `what` says what it should hold ("the calibration"), for the messages.
  // Throws Error naming both.
  InputFile(std::string path, std::string what);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // The data from the first byte on (what peek_first_line() read ahead included).
  std::istream& stream() noexcept { return in_; }
  const std::string& path() const noexcept { return path_; }
  const std::string& what() const noexcept { return what_; }

  // The first line holding more than white space (at most `max_bytes` of it), read ahead
  // without being consumed; "" when the input has none.
  std::string peek_first_line(size_t max_bytes = 4096);
  // All of the data that is left, as one string (JSON documents).
  std::string read_all();
  // Throws Error naming the file when a read failed (rather than the data ending).
  void check_read() const;

 private:
  class Buffer;
  std::string path_, what_;
  std::unique_ptr<Buffer> buf_;
  std::istream in_;
};

// `read(stream)` on `path` opened as an InputFile, then check_read(): for the text readers
// that take a std::istream (flow.txt, fct.txt, flow maps, queue series).
template <typename F>
auto read_input(const std::string& path, const std::string& what, F&& read) {
  InputFile in(path, what);
  auto result = read(in.stream());
  in.check_read();
  return result;
}

}  // namespace dlcnet
