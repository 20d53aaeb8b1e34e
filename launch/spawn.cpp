#include "launch/spawn.hpp"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <thread>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/log_line.hpp"

namespace dlcnet {
namespace {

// A port the kernel considers free now. The coordinator binds it a moment later; another
// process taking it in between makes rank 0 fail to bind, which is reported, not hidden.
uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw_errno("--spawn: socket()");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    throw_errno("--spawn: finding a free port");
  }
  ::close(fd);
  return ntohs(a.sin_port);
}

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "exit code " + std::to_string(exit_code(status));
}

}  // namespace

int spawn_ranks(const std::vector<std::string>& args, const SpawnOptions& o) {
  const uint16_t port = free_port();
  // The job token: 128 random bits (std::random_device reads the kernel's random source), in
  // each rank's environment, not on its command line (any local user reads command lines; a
  // process's environment only its owner and root).
  std::random_device rd;
  std::string token;
  for (int i = 0; i < 4; ++i) {
    char word[9];
    std::snprintf(word, sizeof word, "%08x", static_cast<unsigned>(rd()));
    token += word;
  }
  const std::string coordinator = "127.0.0.1:" + std::to_string(port);
  std::vector<pid_t> pids;
  for (int r = 0; r < o.world_size; ++r) {
    std::vector<std::string> a = {"/proc/self/exe"};
    a.insert(a.end(), args.begin(), args.end());
    const std::string extra[] = {"--rank",        std::to_string(r),
                                 "--world-size",  std::to_string(o.world_size),
                                 "--coordinator", coordinator};
    a.insert(a.end(), std::begin(extra), std::end(extra));
    std::vector<char*> cargv;
    for (auto& s : a) cargv.push_back(s.data());
    cargv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw_errno("--spawn: fork");
    if (pid == 0) {
      ::setenv("DLCNET_RANK_SOURCE", "spawn", 1);
      ::setenv("DLCNET_JOB_TOKEN", token.c_str(), 1);
      ::execv(cargv[0], cargv.data());
      std::perror((o.tool + " --spawn: exec").c_str());
      ::_exit(127);
    }
    pids.push_back(pid);
  }
  if (!o.quiet) {
    std::string line = o.tool + ": --spawn: " + std::to_string(o.world_size) +
                       " ranks, coordinator " + coordinator + ", pids";
    for (pid_t p : pids) line += " " + std::to_string(p);
    log_line(line);
  }
  int first = 0;
  int64_t kill_at = now_ns() + o.limit.count() * 1'000'000'000;
  size_t running = pids.size();
  std::vector<bool> done(pids.size(), false);
  std::vector<bool> killed(pids.size(), false);   // by us, at the time limit or after a failure
  std::vector<bool> stopped(pids.size(), false);  // SIGSTOP: frozen, it will not end by itself
  while (running > 0) {
    bool reaped = false;
    for (size_t r = 0; r < pids.size(); ++r) {
      if (done[r]) continue;
      int status = 0;
      const pid_t w = ::waitpid(pids[r], &status, WNOHANG | WUNTRACED | WCONTINUED);
      if (w != pids[r]) continue;
      if (WIFSTOPPED(status) || WIFCONTINUED(status)) {
        stopped[r] = WIFSTOPPED(status);
        continue;
      }
      done[r] = true;
      --running;
      reaped = true;
      if (exit_code(status) == 0) continue;
      // Every failed rank is named, not only the first reaped: a killed rank and the survivors
      // that noticed it can end within one polling interval, in any order.
      if (!o.quiet && !killed[r])
        log_line(o.tool + ": --spawn: rank " + std::to_string(r) + " " + describe(status));
      if (first == 0) {
        first = exit_code(status);
        kill_at = std::min(kill_at, now_ns() + o.grace.count() * 1'000'000'000);
      }
    }
    // After a failure, ranks that are all stopped (frozen) have nothing left to notice.
    bool all_stopped = first != 0;
    for (size_t r = 0; r < pids.size(); ++r) all_stopped = all_stopped && (done[r] || stopped[r]);
    if (running > 0 && (now_ns() >= kill_at || all_stopped)) {
      for (size_t r = 0; r < pids.size(); ++r) {
        if (done[r] || killed[r]) continue;
        log_line(o.tool + ": --spawn: killing rank " + std::to_string(r) + " (pid " +
                 std::to_string(pids[r]) +
                 "): " + (stopped[r] ? "stopped (SIGSTOP)" : "still running") + " " +
                 (first ? "after another rank failed" : "at the time limit"));
        ::kill(pids[r], SIGKILL);
        killed[r] = true;
      }
      if (first == 0) first = 124;
      kill_at = INT64_MAX;
    }
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return first;
}

std::vector<std::string> spawn_args(int argc, const char* const* argv) {
  std::vector<std::string> out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--spawn") continue;
    if (a == "--spawn-timeout") {
      ++i;
      continue;
    }
    if (a.rfind("--spawn-timeout=", 0) == 0) continue;
    out.push_back(a);
  }
  return out;
}

}  // namespace dlcnet
