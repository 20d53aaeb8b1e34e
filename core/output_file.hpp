// Every file a tool writes (--json, --records, --fct, dlc-trace's and dlc-compare's outputs):
// opened before the work whose results it will hold, so that an unwritable path is an error
// before anything is measured, and written so that nothing the user named is replaced:
//   - a regular file, or a path that does not exist yet: Mode::replace writes a temporary file
//     in its folder (created at once, so the folder's permissions are checked up front; unnamed
//     where the file system allows, O_TMPFILE, so a killed process leaves none behind) and
//     commit() renames it over the target, so a failed run leaves the old file whole;
//     Mode::stream (per-message records) truncates and writes the file itself as it goes, so
//     whatever was flushed survives a crash, and a failed write (a full disk) is cut back to
//     the last whole line;
//   - a symbolic link: followed; the file it names is written as above and the link stays;
//   - a FIFO or a character device (/dev/stdout, /dev/null, /dev/full): opened at once and
//     written directly as a stream, never replaced; a FIFO with no reader is an error, not a
//     wait; a reader that goes away is a write error, not SIGPIPE;
//   - anything else (a directory, a block device, a socket): refused.
// Errors name the option and the path, e.g. "--json /no/such/r.json: cannot create a file in
// /no/such: No such file or directory".
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace dlcnet {

class OutputFile {
 public:
  enum class Mode { replace, stream };

  // Opens now; throws Error naming `option` and `path`.
  OutputFile(std::string option, std::string path, Mode mode = Mode::replace);
  // Without commit(): a temporary file is removed (the target untouched); a stream is closed
  // with what was flushed.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Buffered; throws Error on a write error.
  void put(std::string_view s) {
    if (buf_.size() + s.size() > kFlushAt) flush();
    buf_.append(s);
  }
  // Puts everything so far in the file (for Mode::replace: the temporary file).
  void flush();
  // Flushes, closes and, for a temporary file, renames it over the target. Throws Error.
  void commit();

  const std::string& option() const noexcept { return option_; }
  const std::string& path() const noexcept { return path_; }
  // "--json /dev/full": how errors name this output.
  std::string name() const { return option_ + " " + path_; }

 private:
  static constexpr size_t kFlushAt = size_t{1} << 20;
  [[noreturn]] void fail(const std::string& what, int err) const;
  void open_target(Mode mode);
  void open_temporary();
  void close_fd();

  std::string option_;
  std::string path_;          // as given
  std::string target_;        // the file it names, symbolic links followed
  std::string temp_;          // Mode::replace of a regular file: the temporary file, once named
  bool unnamed_ = false;      // Mode::replace: fd_ is an O_TMPFILE, linked in commit()
  bool whole_lines_ = false;  // Mode::stream of a regular file: cut a failed write to its lines
  uint64_t written_ = 0;      // bytes in the file (Mode::stream)
  bool pipe_ = false;         // a FIFO: writes may raise SIGPIPE
  int fd_ = -1;
  std::string buf_;
};

// An OutputFile for an optional option: null when `path` is empty.
std::unique_ptr<OutputFile> open_output(const std::string& option, const std::string& path);

// What `fill` writes to a stream, put in `out` and committed: for the writers of std::ostream
// (fct.txt, topology files). Throws Error naming the output.
void write_stream(OutputFile& out, const std::function<void(std::ostream&)>& fill);

// Runs every step (each writes one output) even after one failed, then throws one Error with
// every failure: an unwritable file never costs the others.
void write_each(std::initializer_list<std::function<void()>> steps);

}  // namespace dlcnet
