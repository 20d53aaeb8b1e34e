// Helpers of the coordinator's hostile-connection tests (tcp_bootstrap_hostile_test.cpp,
// tcp_bootstrap_hostile_peer_test.cpp): a job of real ranks on threads, raw frames, how a
// connection ended, and the process's memory.
#pragma once

#include <poll.h>
#include <sys/socket.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <functional>
#include <future>
#include <string>
#include <thread>

#include "core/error.hpp"
#include "core/frame_reader.hpp"
#include "core/socket.hpp"
#include "core/tcp_bootstrap.hpp"
#include "core/tcp_bootstrap_impl.hpp"
#include "core/wire.hpp"
#include "tests/core/tcp_bootstrap_test_config.hpp"

namespace dlcnet::hostile {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

inline constexpr int kRanks = 8;
inline constexpr uint64_t kToken = 42;  // local_config()'s
inline constexpr milliseconds kHelloTimeout{3000};
inline constexpr milliseconds kSlack{1000};  // less than kHelloTimeout

inline milliseconds since(Clock::time_point t) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - t);
}

inline TcpBootstrapConfig config(int rank, int size, uint16_t port) {
  TcpBootstrapConfig c = local_config(rank, size, port, milliseconds(20000), milliseconds(20000));
  c.hello_timeout = kHelloTimeout;
  return c;
}

// A job of `size` ranks: ranks 1.. join from threads, rank r kStagger * r after the start (so
// hostile connections and real hellos arrive interleaved), while `during` opens the hostile
// connections; rank 0 (`root`, bound) joins, and every rank takes part in a barrier. Returns how
// long rank 0's join took from the start.
inline constexpr milliseconds kStagger{10};
inline milliseconds run_job(TcpBootstrap& root, int size, const std::function<void()>& during) {
  const uint16_t port = root.port();
  const auto start = Clock::now();
  auto joined = std::async(std::launch::async, [&root, start] {
    root.join();
    const milliseconds took = since(start);
    root.barrier();
    return took;
  });
  std::vector<std::future<void>> ranks;
  for (int r = 1; r < size; ++r) {
    ranks.push_back(std::async(std::launch::async, [r, size, port, start] {
      std::this_thread::sleep_until(start + kStagger * r);
      TcpBootstrap b(config(r, size, port));
      b.join();
      b.barrier();
    }));
  }
  if (during) during();
  for (auto& f : ranks) f.get();
  return joined.get();
}

inline milliseconds normal_join_time(int size) {
  TcpBootstrap root(config(0, size, 0));
  return run_job(root, size, nullptr);
}

inline Socket connect_to(uint16_t port) {
  return tcp_connect("127.0.0.1", port, Deadline::after(milliseconds(5000)), "hostile client");
}

inline void send_raw(const Socket& s, std::span<const uint8_t> bytes) {
  (void)!::send(s.fd(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
}

inline Bytes header(uint16_t version, uint16_t type, uint32_t length) {
  WireWriter w;
  w.u32(kWireMagic).u16(version).u16(type).u32(length);
  return w.take();
}

inline Bytes hello(uint32_t rank, uint32_t size, uint64_t token) {
  WireWriter w;
  w.u32(rank).u32(size).u64(token);
  return encode_frame(kHello, w.bytes());
}

// How rank 0 ended a hostile connection: whether it closed it within the time given, after
// how long, and the reason of its reject ("" without one).
struct Ending {
  bool closed = false;
  milliseconds after{0};
  std::string reject;
};

inline Ending wait_closed(const Socket& s, milliseconds within, Clock::time_point since_when) {
  Ending e;
  Bytes got;
  for (;;) {
    const milliseconds left = within - since(since_when);
    if (left.count() <= 0) return e;
    pollfd p{s.fd(), POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    uint8_t buf[4096];
    const ssize_t n = ::recv(s.fd(), buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0) {
      got.insert(got.end(), buf, buf + n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
    e.closed = true;  // end of stream, or reset
    e.after = since(since_when);
    if (got.size() > kFrameHeaderSize) {
      try {
        WireReader r(std::span<const uint8_t>(got).subspan(kFrameHeaderSize), "reject");
        e.reject = r.str("reason");
      } catch (const Error& err) {
        e.reject = std::string("(unreadable: ") + err.what() + ")";
      }
    }
    return e;
  }
}

// Rank 0's peak resident memory (kB) since the last reset_peak(); 0 where Linux does not say.
// Rank 0's next collective must fail naming rank 1 (the hostile one) and `why`.
inline void expect_collective_fails_naming_rank_1(TcpBootstrap& root, const std::string& why) {
  try {
    root.allgather(Bytes{1});
    FAIL() << "the collective went through";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("rank 1 (127.0.0.1:"), std::string::npos) << m;
    EXPECT_NE(m.find(why), std::string::npos) << m;
  }
}

inline bool reset_peak() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return f.good();
}
inline long peak_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}
inline long current_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

}  // namespace dlcnet::hostile
