// The coordinator (rank 0 of the TCP bootstrap) under hostile connections while the real ranks
// join: garbage, oversize lengths, another wire version, another token, a rank out of range or
// already joined, idle and slow-loris connections, a flood of idle ones. In every case the job
// joins within its normal time (measured in the same test, plus kSlack: less than one hello
// timeout, so no hostile connection costs its deadline serially), the hostile connection is
// closed (at once with a reject naming why, or at its own hello deadline), and rank 0 allocates
// nothing for a length it was only told about. The collectives after the join and the joining
// side: tcp_bootstrap_hostile_peer_test.cpp.
#include "tests/core/tcp_bootstrap_hostile.hpp"

namespace dlcnet {
namespace {

using namespace hostile;

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

}  // namespace
}  // namespace dlcnet
