// The coordinator (rank 0 of the TCP bootstrap) under hostile connections while the real ranks
// join: garbage, oversize lengths, another wire version, another token, a rank out of range or
// already joined, idle and slow-loris connections, a flood of idle ones. In every case the job
// joins within its normal time (measured in the same test, plus kSlack: less than one hello
// timeout, so no hostile connection costs its deadline serially), the hostile connection is
// closed (at once with a reject naming why, or at its own hello deadline), and rank 0 allocates
// nothing for a length it was only told about. Also the collectives after the join and the
// joining side, against a fake rank and a fake coordinator.
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
#include "core/wire.hpp"
#include "tests/core/tcp_bootstrap_test_config.hpp"

namespace dlcnet {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

constexpr int kRanks = 8;
constexpr uint64_t kToken = 42;  // local_config()'s
constexpr milliseconds kHelloTimeout{3000};
constexpr milliseconds kSlack{1000};  // less than kHelloTimeout
constexpr uint16_t kHello = 1, kWelcome = 2, kReject = 3, kCollective = 4, kResult = 5;

milliseconds since(Clock::time_point t) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - t);
}

TcpBootstrapConfig config(int rank, int size, uint16_t port) {
  TcpBootstrapConfig c = local_config(rank, size, port, milliseconds(20000), milliseconds(20000));
  c.hello_timeout = kHelloTimeout;
  return c;
}

// A job of `size` ranks: ranks 1.. join from threads, rank r kStagger * r after the start (so
// hostile connections and real hellos arrive interleaved), while `during` opens the hostile
// connections; rank 0 (`root`, bound) joins, and every rank takes part in a barrier. Returns how
// long rank 0's join took from the start.
constexpr milliseconds kStagger{10};
milliseconds run_job(TcpBootstrap& root, int size, const std::function<void()>& during) {
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

milliseconds normal_join_time(int size) {
  TcpBootstrap root(config(0, size, 0));
  return run_job(root, size, nullptr);
}

Socket connect_to(uint16_t port) {
  return tcp_connect("127.0.0.1", port, Deadline::after(milliseconds(5000)), "hostile client");
}

void send_raw(const Socket& s, std::span<const uint8_t> bytes) {
  (void)!::send(s.fd(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
}

Bytes header(uint16_t version, uint16_t type, uint32_t length) {
  WireWriter w;
  w.u32(kWireMagic).u16(version).u16(type).u32(length);
  return w.take();
}

Bytes hello(uint32_t rank, uint32_t size, uint64_t token) {
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

Ending wait_closed(const Socket& s, milliseconds within, Clock::time_point since_when) {
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
bool reset_peak() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return f.good();
}
long peak_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}
long current_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

struct Hostile {
  std::string what;
  Bytes bytes;
  std::string expect;  // in the reject's reason
};

// Every kind of bad hello, two connections each, opened while the ranks join: each is turned
// away at once (not at its hello deadline) with a reason naming what is wrong, and the job
// joins in its normal time.
TEST(TcpBootstrapHostile, BadHellosAreTurnedAwayAtOnceWhileRanksJoin) {
  const milliseconds normal = normal_join_time(kRanks);
  Bytes trailing = hello(1, kRanks, kToken);
  trailing[11] = 20;  // the header says 20 bytes of payload: 16 and 4 more
  trailing.insert(trailing.end(), 4, 0xee);
  Bytes version = header(kWireVersion + 1, kHello, 16);
  version.resize(version.size() + 16, 0);
  Bytes collective = encode_frame(kCollective, Bytes(16, 0));
  const std::vector<Hostile> cases = {
      {"garbage",
       Bytes{'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/', '1', '.', '1', '\r', '\n', '\r',
             '\n'},
       "not a dlcnet peer"},
      {"4 GiB length", header(kWireVersion, kHello, 0xffffffffu), "exceeds the limit"},
      {"64 MiB length", header(kWireVersion, kHello, kWireMaxPayload), "exceeds the limit"},
      {"wire version", version, "wire protocol version " + std::to_string(kWireVersion + 1)},
      {"token", hello(1, kRanks, 7), "job token differs"},
      {"world size", hello(1, kRanks + 1, kToken), "world size"},
      {"rank 0", hello(0, kRanks, kToken), "out of range"},
      {"rank = size", hello(kRanks, kRanks, kToken), "out of range"},
      {"rank 2^32-1", hello(0xffffffffu, kRanks, kToken), "out of range"},
      {"trailing bytes", trailing, "trailing"},
      {"not a hello", collective, "expected a hello"},
  };
  TcpBootstrap root(config(0, kRanks, 0));
  const uint16_t port = root.port();
  std::vector<Socket> conns;
  std::vector<std::future<Ending>> endings;
  const auto opened = Clock::now();
  const milliseconds joined = run_job(root, kRanks, [&] {
    for (int copy = 0; copy < 2; ++copy) {
      for (const Hostile& h : cases) {
        conns.push_back(connect_to(port));
        send_raw(conns.back(), h.bytes);
      }
    }
    for (const Socket& s : conns) {
      endings.push_back(std::async(std::launch::async, [&s, opened] {
        return wait_closed(s, kHelloTimeout - milliseconds(500), opened);
      }));
    }
  });
  EXPECT_LE(joined.count(), (normal + kSlack).count()) << "normal join " << normal.count();
  for (size_t i = 0; i < endings.size(); ++i) {
    const Hostile& h = cases[i % cases.size()];
    const Ending e = endings[i].get();
    EXPECT_TRUE(e.closed) << h.what << ": still open after " << (kHelloTimeout.count() - 500)
                          << " ms";
    EXPECT_NE(e.reject.find(h.expect), std::string::npos)
        << h.what << ": reject '" << e.reject << "', expected '" << h.expect << "'";
  }
  std::printf("bad hellos: normal join %lld ms, with %zu bad hellos %lld ms\n",
              static_cast<long long>(normal.count()), conns.size(),
              static_cast<long long>(joined.count()));
}

// A hello that claims a large payload: refused on its header, with nothing allocated for it
// (before: 64 MiB zero-filled per connection, held until its hello deadline).
TEST(TcpBootstrapHostile, OversizeHelloLengthsAllocateNothing) {
  if (!reset_peak()) GTEST_SKIP() << "no /proc/self/clear_refs";
  const milliseconds normal = normal_join_time(kRanks);
  TcpBootstrap root(config(0, kRanks, 0));
  const uint16_t port = root.port();
  std::vector<Socket> conns;
  reset_peak();
  const long before = current_kb();
  const auto opened = Clock::now();
  const milliseconds joined = run_job(root, kRanks, [&] {
    for (int i = 0; i < 8; ++i) {
      conns.push_back(connect_to(port));
      send_raw(conns.back(), header(kWireVersion, kHello, i % 2 ? kWireMaxPayload : 0xfffffff0u));
    }
  });
  for (const Socket& s : conns) {
    const Ending e = wait_closed(s, kHelloTimeout - milliseconds(500), opened);
    EXPECT_TRUE(e.closed);
    EXPECT_NE(e.reject.find("exceeds the limit of 64 for frame type 1"), std::string::npos)
        << e.reject;
  }
  const long grew_kb = peak_kb() - before;
  EXPECT_LT(grew_kb, 32 << 10) << "rank 0's peak memory grew by " << grew_kb / 1024 << " MiB";
  EXPECT_LE(joined.count(), (normal + kSlack).count()) << "normal join " << normal.count();
  std::printf("oversize hellos: peak memory +%ld MiB, join %lld ms (normal %lld ms)\n",
              grew_kb / 1024, static_cast<long long>(joined.count()),
              static_cast<long long>(normal.count()));
}

// A connection that claims a rank already joined (a second copy of it, with the job's token):
// turned away at once; the job goes on.
TEST(TcpBootstrapHostile, RankAlreadyJoinedIsTurnedAway) {
  TcpBootstrap root(config(0, 3, 0));
  const uint16_t port = root.port();
  auto root_done = std::async(std::launch::async, [&] {
    root.join();
    root.barrier();
  });
  std::promise<void> joined1, go;
  auto rank1 = std::async(std::launch::async, [port, &joined1, released = go.get_future()] {
    TcpBootstrap b(config(1, 3, port));
    b.join();
    joined1.set_value();
    released.wait();
    b.barrier();
  });
  joined1.get_future().wait();
  Socket dup = connect_to(port);
  send_raw(dup, hello(1, 3, kToken));
  const Ending e = wait_closed(dup, milliseconds(2000), Clock::now());
  EXPECT_TRUE(e.closed);
  EXPECT_LT(e.after.count(), 500);
  EXPECT_NE(e.reject.find("rank 1 joined already"), std::string::npos) << e.reject;
  go.set_value();
  TcpBootstrap b2(config(2, 3, port));
  b2.join();
  b2.barrier();
  rank1.get();
  root_done.get();
}

// Slow-loris connections that trickle a byte of a hello every 250 ms (a hello takes 7 s so):
// the ranks join in their normal time, and the connections are closed once the job joined.
TEST(TcpBootstrapHostile, SlowLorisConnectionsDoNotHoldUpTheJoin) {
  const milliseconds normal = normal_join_time(kRanks);
  TcpBootstrap root(config(0, kRanks, 0));
  const uint16_t port = root.port();
  std::vector<Socket> conns;
  std::atomic<bool> stop{false};
  std::thread trickle;
  const Bytes slow = hello(1, kRanks, kToken);
  const milliseconds joined = run_job(root, kRanks, [&] {
    for (int i = 0; i < 10; ++i) conns.push_back(connect_to(port));
    trickle = std::thread([&] {
      for (size_t at = 0; at < slow.size() && !stop; ++at) {
        for (const Socket& s : conns) send_raw(s, std::span<const uint8_t>(&slow[at], 1));
        for (int i = 0; i < 25 && !stop; ++i) std::this_thread::sleep_for(milliseconds(10));
      }
    });
  });
  EXPECT_LE(joined.count(), (normal + kSlack).count()) << "normal join " << normal.count();
  EXPECT_LT(joined.count(), kHelloTimeout.count());
  const auto after_join = Clock::now();
  for (const Socket& s : conns) EXPECT_TRUE(wait_closed(s, milliseconds(1000), after_join).closed);
  stop = true;
  trickle.join();
  std::printf("slow-loris x%zu: normal join %lld ms, with them %lld ms\n", conns.size(),
              static_cast<long long>(normal.count()), static_cast<long long>(joined.count()));
}

// While the join goes on (a rank is late), idle and slow-loris connections are each closed at
// their own hello deadline, all at once, not one after another.
TEST(TcpBootstrapHostile, IdleAndSlowConnectionsAreCutAtTheirHelloDeadline) {
  auto c = config(0, 2, 0);
  c.hello_timeout = milliseconds(1000);
  TcpBootstrap root(c);
  const uint16_t port = root.port();
  auto root_done = std::async(std::launch::async, [&] {
    root.join();
    root.barrier();
  });
  std::vector<Socket> idle, slow;
  const auto opened = Clock::now();
  for (int i = 0; i < 8; ++i) idle.push_back(connect_to(port));
  for (int i = 0; i < 8; ++i) slow.push_back(connect_to(port));
  std::atomic<bool> stop{false};
  std::thread trickle([&] {
    const Bytes h = hello(1, 2, kToken);
    for (size_t at = 0; at < h.size() && !stop; ++at) {
      for (const Socket& s : slow) send_raw(s, std::span<const uint8_t>(&h[at], 1));
      std::this_thread::sleep_for(milliseconds(200));
    }
  });
  std::vector<std::future<Ending>> endings;
  for (const auto* group : {&idle, &slow})
    for (const Socket& s : *group)
      endings.push_back(std::async(
          std::launch::async, [&s, opened] { return wait_closed(s, milliseconds(2500), opened); }));
  for (auto& f : endings) {
    const Ending e = f.get();
    EXPECT_TRUE(e.closed);
    EXPECT_GE(e.after.count(), 900);
    EXPECT_LE(e.after.count(), 1900);
    EXPECT_NE(e.reject.find("no hello within 1000 ms"), std::string::npos) << e.reject;
  }
  stop = true;
  trickle.join();
  // The late rank still joins.
  TcpBootstrap b(config(1, 2, port));
  b.join();
  b.barrier();
  root_done.get();
}

// A flood of idle connections: rank 0 keeps at most the missing ranks plus 64 waiting, turning
// the oldest away, so the flood neither uses up its descriptors nor keeps the ranks out.
TEST(TcpBootstrapHostile, FloodOfIdleConnectionsIsBounded) {
  const milliseconds normal = normal_join_time(kRanks);
  TcpBootstrap root(config(0, kRanks, 0));
  const uint16_t port = root.port();
  constexpr int kFlood = 200;
  std::vector<Socket> conns;
  int closed_early = 0;
  const milliseconds joined = run_job(root, kRanks, [&] {
    const auto opened = Clock::now();
    for (int i = 0; i < kFlood; ++i) conns.push_back(connect_to(port));
    // Rank 0 takes them from its backlog as they come, turning the oldest away: count those
    // closed so (not at their hello deadline, kHelloTimeout after they opened).
    std::vector<char> counted(conns.size(), 0);
    while (closed_early < kFlood - (kRanks - 1) - 64 && since(opened) < milliseconds(2000)) {
      std::this_thread::sleep_for(milliseconds(50));
      for (size_t i = 0; i < conns.size(); ++i) {
        if (counted[i]) continue;
        const Ending e = wait_closed(conns[i], milliseconds(1), Clock::now());
        if (e.closed && e.reject.find("waiting to say hello") != std::string::npos) {
          counted[i] = 1;
          ++closed_early;
        }
      }
    }
    EXPECT_LT(since(opened).count(), kHelloTimeout.count());
  });
  // 7 missing ranks + 64 spare: at least kFlood - 71 turned away long before their deadline.
  EXPECT_GE(closed_early, kFlood - (kRanks - 1) - 64);
  EXPECT_LE(joined.count(), (normal + kSlack).count()) << "normal join " << normal.count();
  std::printf("flood of %d idle: %d turned away at once, join %lld ms (normal %lld ms)\n", kFlood,
              closed_early, static_cast<long long>(joined.count()),
              static_cast<long long>(normal.count()));
}

// --- after the join: a joined rank's collective frame ------------------------------------------

// A fake rank 1 that joins with the job's token and then misbehaves in the first collective.
struct FakeRank {
  Socket s;
  explicit FakeRank(uint16_t port) : s(connect_to(port)) {
    send_raw(s, hello(1, 2, kToken));
    const Frame f = recv_frame(s, Deadline::after(milliseconds(5000)), "rank 0");
    if (f.type != kWelcome) throw Error("fake rank: not welcomed");
  }
};

TEST(TcpBootstrapHostile, OversizeCollectiveLengthIsNamed) {
  TcpBootstrap root(config(0, 2, 0));
  const uint16_t port = root.port();
  auto fake = std::async(std::launch::async, [port] {
    FakeRank f(port);
    send_raw(f.s, header(kWireVersion, kCollective, 0xffffffffu));
    std::this_thread::sleep_for(milliseconds(500));
  });
  root.join();
  const auto start = Clock::now();
  try {
    root.allgather(Bytes{1});
    FAIL() << "the collective went through";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("rank 1 (127.0.0.1:"), std::string::npos) << m;
    EXPECT_NE(m.find("frame of 4294967295 bytes exceeds the limit"), std::string::npos) << m;
  }
  EXPECT_LT(since(start).count(), 1000);
  fake.get();
}

// A joined rank that claims a large collective and sends little of it: rank 0 holds what
// arrived, not what was claimed.
TEST(TcpBootstrapHostile, ClaimedCollectiveLengthIsNotAllocatedUpFront) {
  if (!reset_peak()) GTEST_SKIP() << "no /proc/self/clear_refs";
  TcpBootstrap root(config(0, 2, 0));
  const uint16_t port = root.port();
  auto fake = std::async(std::launch::async, [port] {
    FakeRank f(port);
    send_raw(f.s, header(kWireVersion, kCollective, kWireMaxPayload - 1));
    send_raw(f.s, Bytes(1000, 0x5a));
    std::this_thread::sleep_for(milliseconds(500));
    // then goes away mid-frame
  });
  root.join();
  reset_peak();
  const long before = current_kb();
  try {
    root.allgather(Bytes{1});
    FAIL() << "the collective went through";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("rank 1 (127.0.0.1:"), std::string::npos) << m;
    EXPECT_NE(m.find("closed the connection"), std::string::npos) << m;
  }
  const long grew_kb = peak_kb() - before;
  EXPECT_LT(grew_kb, 16 << 10) << "rank 0's peak memory grew by " << grew_kb / 1024 << " MiB";
  fake.get();
}

// --- the joining side, against a fake coordinator
// -------------------------------------------------

// A fake rank 0: takes rank 1's hello and answers with `reply` (raw bytes), then waits.
struct FakeCoordinator {
  Socket listener = tcp_listen("127.0.0.1", 0);
  uint16_t port = local_port(listener);
  std::future<void> served;
  std::promise<void> release;

  explicit FakeCoordinator(Bytes reply, bool then_collective = false) {
    served = std::async(std::launch::async, [this, reply = std::move(reply), then_collective] {
      auto s = tcp_accept(listener, Deadline::after(milliseconds(5000)), nullptr);
      if (!s) return;
      (void)recv_frame(*s, Deadline::after(milliseconds(5000)), "rank 1");
      if (then_collective) {
        send_frame(*s, kWelcome, {}, Deadline::after(milliseconds(1000)), "rank 1");
        (void)recv_frame(*s, Deadline::after(milliseconds(5000)), "rank 1");
      }
      send_raw(*s, reply);
      release.get_future().wait_for(milliseconds(10000));
    });
  }
  ~FakeCoordinator() {
    release.set_value();
    served.wait();
  }
};

std::string join_error(uint16_t port, milliseconds* took, bool then_barrier = false) {
  auto c = config(1, 2, port);
  c.join_timeout = milliseconds(5000);
  c.op_timeout = milliseconds(5000);
  TcpBootstrap b(c);
  const auto start = Clock::now();
  try {
    b.join();
    if (then_barrier) b.barrier();
    *took = since(start);
    return "no error";
  } catch (const Error& e) {
    *took = since(start);
    return e.what();
  }
}

TEST(TcpBootstrapHostile, OversizeWelcomeFromAFakeCoordinatorIsNamed) {
  for (const uint32_t claimed : {0xffffffffu, kWireMaxPayload}) {
    FakeCoordinator fake(header(kWireVersion, kWelcome, claimed));
    milliseconds took{0};
    const std::string m = join_error(fake.port, &took);
    EXPECT_NE(m.find("coordinator 127.0.0.1:" + std::to_string(fake.port)), std::string::npos) << m;
    EXPECT_NE(m.find("frame of " + std::to_string(claimed) + " bytes exceeds the limit"),
              std::string::npos)
        << m;
    EXPECT_LT(took.count(), 1000) << m;
  }
}

TEST(TcpBootstrapHostile, OversizeResultFromAFakeCoordinatorIsNamed) {
  FakeCoordinator fake(header(kWireVersion, kResult, 0xffffffffu), true);
  milliseconds took{0};
  const std::string m = join_error(fake.port, &took, true);
  EXPECT_NE(m.find("coordinator 127.0.0.1:" + std::to_string(fake.port)), std::string::npos) << m;
  EXPECT_NE(m.find("frame of 4294967295 bytes exceeds the limit"), std::string::npos) << m;
  EXPECT_LT(took.count(), 1000) << m;
}

// A real rank turned away to make room (under a flood it was slow to say hello: the oldest
// waiting connection goes) connects again and joins; any other reject still ends its join.
TEST(TcpBootstrapHostile, RankTurnedAwayToMakeRoomConnectsAgain) {
  Socket listener = tcp_listen("127.0.0.1", 0);
  const uint16_t port = local_port(listener);
  auto reject = [](const std::string& reason) {
    WireWriter w;
    w.str(reason);
    return w.bytes();
  };
  int hellos = 0;
  auto coordinator = std::async(std::launch::async, [&] {
    for (int i = 0; i < 3; ++i) {
      auto s = tcp_accept(listener, Deadline::after(milliseconds(5000)), nullptr);
      if (!s) return;
      (void)recv_frame(*s, Deadline::after(milliseconds(5000)), "rank 1");
      ++hellos;
      if (i < 2) {
        send_frame(
            *s, kReject,
            reject("more than 71 connections waiting to say hello: the oldest is turned away"),
            Deadline::after(milliseconds(1000)), "rank 1");
      } else {
        send_frame(*s, kWelcome, {}, Deadline::after(milliseconds(1000)), "rank 1");
      }
    }
  });
  milliseconds took{0};
  EXPECT_EQ(join_error(port, &took), "no error");
  coordinator.get();
  EXPECT_EQ(hellos, 3);
  EXPECT_LT(took.count(), 1000);

  FakeCoordinator wrong_token(encode_frame(kReject, reject("wrong job token")));
  const std::string m = join_error(wrong_token.port, &took);
  EXPECT_NE(m.find("turned this rank away: wrong job token"), std::string::npos) << m;
}

// --- the reader itself: memory follows the bytes that arrived, frames come out whole ---------

TEST(FrameReaderBounds, AllocatesAsBytesArriveAndReassemblesLargeFrames) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  Socket a(sv[0]), b(sv[1]);
  Bytes payload(3 << 20);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<uint8_t>(i * 7 + i / 251);
  const Bytes frame = encode_frame(kCollective, payload);
  FrameReader reader;
  // The header and 10 bytes: 64 KiB held, not 3 MiB.
  send_raw(a, std::span<const uint8_t>(frame).first(kFrameHeaderSize + 10));
  EXPECT_FALSE(reader.read_some(b, "peer"));
  EXPECT_LE(reader.allocated(), kFrameGrowStep);
  std::thread writer([&] {
    send_all(a, std::span<const uint8_t>(frame).subspan(kFrameHeaderSize + 10),
             Deadline::after(milliseconds(10000)), "reader");
  });
  std::optional<Frame> got;
  const auto start = Clock::now();
  while (!got && since(start) < milliseconds(10000)) {
    pollfd p{b.fd(), POLLIN, 0};
    ::poll(&p, 1, 100);
    got = reader.read_some(b, "peer");
  }
  writer.join();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->type, kCollective);
  EXPECT_TRUE(got->payload == payload);
  // And recv_frame, the blocking reader, the same.
  std::thread writer2([&] { send_all(a, frame, Deadline::after(milliseconds(10000)), "reader"); });
  const Frame f = recv_frame(b, Deadline::after(milliseconds(10000)), "peer");
  writer2.join();
  EXPECT_TRUE(f.payload == payload);
  // A bound below the claimed length: refused on the header, naming the peer.
  FrameReader small(64);
  send_raw(a, header(kWireVersion, kHello, 65));
  try {
    (void)small.read_some(b, "peer 9");
    FAIL();
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("peer 9: frame of 65 bytes exceeds the limit of 64"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dlcnet
