#include "core/tcp_bootstrap.hpp"
#include "tests/core/tcp_bootstrap_test_config.hpp"

#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "core/error.hpp"
#include "core/socket.hpp"

namespace dlcnet {
namespace {

using std::chrono::milliseconds;

TcpBootstrapConfig config(int rank, int size, uint16_t port) {
  return local_config(rank, size, port, milliseconds(5000), milliseconds(5000));
}

TEST(TcpBootstrap, FiveRanksExchangeColumnsAndGather) {
  const int n = 5;
  TcpBootstrap root(config(0, n, 0));
  const uint16_t port = root.port();
  std::vector<std::future<int>> others;
  auto body = [](Bootstrap& b) {
    int errors = 0;
    for (int round = 0; round < 20; ++round) {
      std::vector<Bytes> out(n);
      for (int d = 0; d < n; ++d) out[d] = {uint8_t(b.rank()), uint8_t(d), uint8_t(round)};
      auto in = b.alltoall(out);
      for (int s = 0; s < n; ++s) {
        Bytes want = s == b.rank() ? Bytes{} : Bytes{uint8_t(s), uint8_t(b.rank()), uint8_t(round)};
        errors += in[s] != want;
      }
      auto all = b.allgather(Bytes(size_t(b.rank()) * 100, uint8_t(b.rank())));
      for (int s = 0; s < n; ++s) errors += all[s] != Bytes(size_t(s) * 100, uint8_t(s));
    }
    b.barrier();
    return errors;
  };
  for (int r = 1; r < n; ++r) {
    others.push_back(std::async(std::launch::async, [=] {
      TcpBootstrap b(config(r, n, port));
      b.join();
      return body(b);
    }));
  }
  root.join();
  EXPECT_EQ(body(root), 0);
  for (auto& f : others) EXPECT_EQ(f.get(), 0);
}

TEST(TcpBootstrap, JoinTimeoutNamesTheMissingRanks) {
  auto c = config(0, 4, 0);
  c.join_timeout = milliseconds(300);
  TcpBootstrap root(c);
  auto r2 = std::async(std::launch::async, [port = root.port()] {
    TcpBootstrap b(config(2, 4, port));
    try {
      b.join();
    } catch (const Error&) {
    }
  });
  try {
    root.join();
    FAIL();
  } catch (const TimeoutError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("ranks 1, 3"), std::string::npos) << m;
  }
  r2.get();
}

TEST(TcpBootstrap, CollectiveTimeoutNamesTheSilentRank) {
  auto c0 = config(0, 2, 0);
  c0.op_timeout = milliseconds(300);
  TcpBootstrap root(c0);
  std::promise<void> done;
  auto silent = std::async(std::launch::async, [&, port = root.port()] {
    TcpBootstrap b(config(1, 2, port));
    b.join();
    done.get_future().wait();  // joins, then never takes part in the collective
  });
  root.join();
  try {
    root.barrier();
    FAIL();
  } catch (const TimeoutError& e) {
    EXPECT_NE(std::string(e.what()).find("waiting for rank 1"), std::string::npos) << e.what();
  }
  done.set_value();
  silent.get();
}

TEST(TcpBootstrap, StrayTokenIsTurnedAwayAndTheJobGoesOn) {
  TcpBootstrap root(config(0, 2, 0));
  const uint16_t port = root.port();
  std::string stray_error;
  auto others = std::async(std::launch::async, [port, &stray_error] {
    auto c = config(1, 2, port);
    c.job_token = 7;
    TcpBootstrap stray(c);
    try {
      stray.join();
      stray_error = "joined";
    } catch (const ProtocolError& e) {
      stray_error = e.what();
    }
    TcpBootstrap good(config(1, 2, port));
    good.join();
    good.barrier();
  });
  root.join();
  root.barrier();
  others.get();
  EXPECT_NE(stray_error.find("job token"), std::string::npos) << stray_error;
}

TEST(TcpBootstrap, OtherWireVersionIsNamedOnTheJoiningSide) {
  auto c0 = config(0, 2, 0);
  c0.join_timeout = milliseconds(1500);
  TcpBootstrap root(c0);
  auto client = std::async(std::launch::async, [port = root.port()] {
    auto c = config(1, 2, port);
    c.wire_version = kWireVersion + 1;
    TcpBootstrap b(c);
    try {
      b.join();
      return std::string("joined");
    } catch (const ProtocolError& e) {
      return std::string(e.what());
    }
  });
  EXPECT_THROW(root.join(), TimeoutError);
  std::string m = client.get();
  EXPECT_NE(m.find("turned this rank away"), std::string::npos) << m;
  EXPECT_NE(m.find("wire protocol version " + std::to_string(kWireVersion + 1)), std::string::npos)
      << m;
}

TEST(TcpBootstrap, ForeignBytesDoNotKillTheCoordinator) {
  TcpBootstrap root(config(0, 2, 0));
  const uint16_t port = root.port();
  auto junk = std::async(std::launch::async, [port] {
    Socket s = tcp_connect("127.0.0.1", port, Deadline::after(milliseconds(2000)), "junk");
    std::string req = "GET / HTTP/1.1\r\n\r\n";
    send_all(s, {reinterpret_cast<const uint8_t*>(req.data()), req.size()},
             Deadline::after(milliseconds(1000)), "coordinator");
    std::this_thread::sleep_for(milliseconds(200));
    TcpBootstrap b(config(1, 2, port));
    b.join();
    b.barrier();
  });
  root.join();
  root.barrier();
  junk.get();
}

TEST(TcpBootstrap, AbsentCoordinatorGivesUpAtTheDeadline) {
  Socket probe = tcp_listen("127.0.0.1", 0);
  const uint16_t port = local_port(probe);
  probe = Socket();  // nothing listens there now
  auto c = config(1, 2, port);
  c.join_timeout = milliseconds(500);
  TcpBootstrap b(c);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    b.join();
    FAIL();
  } catch (const TimeoutError& e) {
    EXPECT_NE(std::string(e.what()).find("could not connect to 127.0.0.1:" + std::to_string(port)),
              std::string::npos)
        << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
}

}  // namespace
}  // namespace dlcnet

namespace dlcnet {
namespace {

// Rank `rank` of `n` joins on its own thread, then runs `body` on its bootstrap.
template <class Body>
auto rank_thread(int rank, int n, uint16_t port, Body body) {
  return std::async(std::launch::async, [=] {
    TcpBootstrap b(config(rank, n, port));
    b.join();
    return body(b);
  });
}

// Rank 2 of `n` joins with `root`, passes a barrier with everyone and dies: its socket closes
// on return, as when its process is killed. Rank 1 must be joining meanwhile.
void join_then_kill_rank2(TcpBootstrap& root, int n, uint16_t port) {
  TcpBootstrap doomed(config(2, n, port));
  auto t = std::async(std::launch::async, [&] {
    doomed.join();
    doomed.barrier();
  });
  root.join();
  root.barrier();
  t.get();
  root.check_peers();  // everyone alive: no throw
}

TEST(TcpBootstrap, KilledRankIsNamedToEveryRankByCheckPeers) {
  const int n = 3;
  TcpBootstrap root(config(0, n, 0));
  const uint16_t port = root.port();
  auto survivor = rank_thread(1, n, port, [](TcpBootstrap& b) {
    b.barrier();
    const Deadline d = Deadline::after(std::chrono::seconds(5));
    while (!d.expired()) {
      try {
        b.check_peers();
      } catch (const Error& e) {
        return std::string(e.what());
      }
      std::this_thread::sleep_for(milliseconds(5));
    }
    return std::string("never noticed");
  });
  join_then_kill_rank2(root, n, port);
  std::string root_error;
  const Deadline d = Deadline::after(std::chrono::seconds(5));
  while (root_error.empty() && !d.expired()) {
    try {
      root.check_peers();
    } catch (const Error& e) {
      root_error = e.what();
    }
  }
  EXPECT_NE(root_error.find("rank 2"), std::string::npos) << root_error;
  std::string survivor_error = survivor.get();
  EXPECT_NE(survivor_error.find("rank 2"), std::string::npos) << survivor_error;
  EXPECT_NE(survivor_error.find("is gone"), std::string::npos) << survivor_error;
}

// Rank 2 dies; rank 1 notices it first and fails; rank 0 then fails because rank 1 left (as a
// transport sees it: "endpoint to rank 1 failed"). Both must still name rank 2, the cause.
TEST(TcpBootstrap, FailuresSettleOnTheRankThatDiedFirst) {
  const int n = 3;
  TcpBootstrap root(config(0, n, 0));
  const uint16_t port = root.port();
  std::promise<void> died;
  std::shared_future<void> death = died.get_future().share();
  auto survivor = rank_thread(1, n, port, [death](TcpBootstrap& b) {
    b.barrier();
    death.wait();
    return b.settle_failure("endpoint to rank 2 failed");
  });
  join_then_kill_rank2(root, n, port);
  died.set_value();
  const std::string at_root = root.settle_failure("endpoint to rank 1 failed");
  EXPECT_EQ(at_root.find("rank 2"), 0u) << at_root;
  EXPECT_NE(at_root.find("is gone"), std::string::npos) << at_root;
  EXPECT_NE(at_root.find("after it this rank: endpoint to rank 1 failed"), std::string::npos)
      << at_root;
  const std::string at_survivor = survivor.get();
  EXPECT_EQ(at_survivor.find("rank 2"), 0u) << at_survivor;
  EXPECT_NE(at_survivor.find("endpoint to rank 2 failed"), std::string::npos) << at_survivor;
}

// A rank that fails alone (a bad option, a full disk) is the cause the others report.
TEST(TcpBootstrap, OneRanksFailureIsTheVerdictForEveryone) {
  const int n = 3;
  TcpBootstrap root(config(0, n, 0));
  const uint16_t port = root.port();
  auto failing = rank_thread(
      1, n, port, [](TcpBootstrap& b) { return b.settle_failure("cannot open records file /x"); });
  auto bystander = rank_thread(2, n, port, [](TcpBootstrap& b) {
    try {
      b.barrier();  // the verdict arrives instead of the barrier's result
      return std::string("barrier passed");
    } catch (const Error& e) {
      return b.settle_failure(e.what());
    }
  });
  root.join();
  std::string at_root;
  try {
    root.barrier();
  } catch (const Error& e) {
    at_root = root.settle_failure(e.what());
  }
  EXPECT_NE(at_root.find("rank 1 (127.0.0.1:"), std::string::npos) << at_root;
  EXPECT_NE(at_root.find("failed: cannot open records file /x"), std::string::npos) << at_root;
  EXPECT_EQ(failing.get(), at_root);
  EXPECT_EQ(bystander.get(), at_root);
}

}  // namespace
}  // namespace dlcnet
