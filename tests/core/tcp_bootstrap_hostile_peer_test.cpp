// The TCP bootstrap after the join and on the joining side, against hostile peers: a joined
// rank claiming oversize collective frames (named, nothing allocated up front), a fake
// coordinator sending oversize replies or turning the rank away, and the frame reader's
// memory, which follows the bytes that arrived.
#include "tests/core/tcp_bootstrap_hostile.hpp"

namespace dlcnet {
namespace {

using namespace hostile;

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
  expect_collective_fails_naming_rank_1(root, "frame of 4294967295 bytes exceeds the limit");
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
  expect_collective_fails_naming_rank_1(root, "closed the connection");
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
