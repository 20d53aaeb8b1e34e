#include "core/output_file.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace dlcnet {
namespace {

namespace fs = std::filesystem;

// A link under /proc or /dev/fd names an open file of some process (/dev/stdout, /dev/fd/63 of
// a shell's process substitution): its text may not be a path ("pipe:[123]"), and the file
// behind it belongs to that descriptor, so it is written through, never replaced.
bool names_a_descriptor(const std::string& p) {
  return p.rfind("/proc/", 0) == 0 || p.rfind("/dev/fd/", 0) == 0;
}

// The file `path` names, symbolic links followed (the last one may dangle). Sets `through_fd`
// when a link leads into /proc or /dev/fd; stops there.
std::string follow_links(const std::string& path, bool& through_fd) {
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    if (names_a_descriptor(p.string())) {
      through_fd = true;
      return p.string();
    }
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p.string();
    std::error_code ec;
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) return p.string();  // opening it reports the error
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p.string();  // a loop: opening it reports ELOOP
}

// The process's umask, without changing it (umask() would, for every thread at once).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "Umask:") {
      std::string value;
      status >> value;
      return static_cast<mode_t>(std::strtoul(value.c_str(), nullptr, 8));
    }
  }
  return 022;
}

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "is a directory";
  if (S_ISBLK(m)) return "is a block device";
  if (S_ISSOCK(m)) return "is a socket";
  return "is not a file, FIFO or character device";
}

// Writes all of [data, data + n); returns 0 or the errno of the failure, and in `done` the
// bytes written.
int write_all(int fd, const char* data, size_t n, size_t& done) {
  done = 0;
  while (done < n) {
    const ssize_t k = ::write(fd, data + done, n - done);
    if (k < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (k == 0) return ENOSPC;
    done += static_cast<size_t>(k);
  }
  return 0;
}

// write_all() with SIGPIPE held back: a FIFO whose reader left is EPIPE, not the end of the
// process (and of the results it has not written elsewhere yet).
int write_all_to_pipe(int fd, const char* data, size_t n, size_t& done) {
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  const int err = write_all(fd, data, n, done);
  if (err == EPIPE) {
    const timespec now{0, 0};
    sigtimedwait(&pipe_only, nullptr, &now);  // take the SIGPIPE this write raised
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return err;
}

}  // namespace

OutputFile::OutputFile(std::string option, std::string path, Mode mode)
    : option_(std::move(option)), path_(std::move(path)) {
  if (path_.empty()) throw Error(option_ + ": an empty path");
  open_target(mode);
}

OutputFile::~OutputFile() {
  close_fd();
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::fail(const std::string& what, int err) const {
  throw Error(name() + ": " + what + ": " + errno_text(err));
}

void OutputFile::open_target(Mode mode) {
  bool through_fd = false;
  target_ = follow_links(path_, through_fd);
  struct stat st {};
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) fail("cannot look at it", errno);
  if (!exists && through_fd) fail("cannot open it", ENOENT);
  if (exists && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
    throw Error(name() + ": " + kind_of(st.st_mode) + ", not an output file");
  if (exists && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || through_fd)) {
    // Written through as a stream. A FIFO opened without O_NONBLOCK would wait for a reader
    // forever; with it, no reader is ENXIO.
    pipe_ = S_ISFIFO(st.st_mode);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | (pipe_ ? O_NONBLOCK : 0));
    if (fd_ < 0 && errno == ENXIO && pipe_) {
      throw Error(name() + ": a FIFO with no reader: start the reader first");
    }
    if (fd_ < 0) fail("cannot open it for writing", errno);
    if (pipe_) ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    return;
  }
  if (mode == Mode::stream) {
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) fail("cannot open it for writing", errno);
    whole_lines_ = true;
    return;
  }
  open_temporary();
  // A new file gets the usual mode, an existing one keeps its own.
  const mode_t keep = exists ? (st.st_mode & 07777) : (0666 & ~current_umask());
  if (::fchmod(fd_, keep) != 0) fail("cannot set the mode of " + temp_, errno);
}

// An unnamed file in the target's folder (O_TMPFILE): a process killed before commit() leaves
// nothing behind. Where the file system has no O_TMPFILE, a named one beside the target.
void OutputFile::open_temporary() {
  const std::string dir = fs::path(target_).parent_path().string();
  const std::string folder = dir.empty() ? std::string(".") : dir;
  fd_ = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd_ >= 0) {
    unnamed_ = true;
    return;
  }
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    fail("cannot create a file in " + folder, errno);
  std::string pattern = target_ + ".XXXXXX.tmp";
  fd_ = ::mkostemps(pattern.data(), 4, O_CLOEXEC);
  if (fd_ < 0) fail("cannot create a file in " + folder, errno);
  temp_ = pattern;
}

void OutputFile::flush() {
  if (buf_.empty()) return;
  if (fd_ < 0) throw Error(name() + ": written after it was closed");
  size_t done = 0;
  const int err = pipe_ ? write_all_to_pipe(fd_, buf_.data(), buf_.size(), done)
                        : write_all(fd_, buf_.data(), buf_.size(), done);
  if (err != 0 && whole_lines_) {
    // A stream of lines (records) ends with its last whole line, never half a row: what the
    // failed write put after it is cut off.
    const size_t nl = std::string_view(buf_.data(), done).rfind('\n');
    const off_t keep = static_cast<off_t>(written_ + (nl == std::string_view::npos ? 0 : nl + 1));
    if (::ftruncate(fd_, keep) == 0) done = static_cast<size_t>(keep) - written_;
  }
  written_ += done;
  buf_.clear();
  if (err != 0) fail("cannot write", err);
}

void OutputFile::close_fd() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void OutputFile::commit() {
  flush();
  if (unnamed_) {
    // Named at last: linked under a unique name beside the target, then renamed over it.
    std::string pattern = target_ + ".XXXXXX.tmp";
    const int probe = ::mkostemps(pattern.data(), 4, O_CLOEXEC);
    if (probe < 0) fail("cannot name its file beside " + target_, errno);
    ::close(probe);
    ::unlink(pattern.c_str());
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, pattern.c_str(), AT_SYMLINK_FOLLOW) != 0 &&
        ::linkat(fd_, "", AT_FDCWD, pattern.c_str(), AT_EMPTY_PATH) != 0)  // no /proc: root's way
      fail("cannot name its file " + pattern, errno);
    temp_ = pattern;
    unnamed_ = false;
  }
  const int fd = fd_;
  fd_ = -1;
  if (fd >= 0 && ::close(fd) != 0) fail("cannot write", errno);
  if (temp_.empty()) return;
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
    fail("cannot rename " + temp_ + " over " + target_, errno);
  }
  temp_.clear();
}

std::unique_ptr<OutputFile> open_output(const std::string& option, const std::string& path) {
  return path.empty() ? nullptr : std::make_unique<OutputFile>(option, path);
}

void write_stream(OutputFile& out, const std::function<void(std::ostream&)>& fill) {
  std::ostringstream text;
  fill(text);
  out.put(text.view());
  out.commit();
}

void write_each(std::initializer_list<std::function<void()>> steps) {
  std::string errors;
  for (const auto& step : steps) {
    try {
      step();
    } catch (const Error& e) {
      errors += (errors.empty() ? "" : "; ") + std::string(e.what());
    }
  }
  if (!errors.empty()) throw Error(errors);
}

}  // namespace dlcnet
