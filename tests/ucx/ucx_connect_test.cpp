#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/error.hpp"
#include "ucx/ucx_transport.hpp"
#include "ucx_test_support.hpp"

namespace dlcnet::test {
namespace {

class UcxConnect : public ::testing::TestWithParam<Fabric> {
 protected:
  void SetUp() override {
    if (GetParam().needs_rdma && rdma_device().empty())
      GTEST_SKIP() << "no RDMA device in /sys/class/infiniband";
  }
};

TEST_P(UcxConnect, DescribeNamesTheLaneTransportsActuallyUsed) {
  std::vector<nlohmann::json> described(2);
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(GetParam()));
    std::vector<uint8_t> buf(4096);
    t->register_memory(buf.data(), buf.size());
    int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    described[rank] = t->describe();
    boot.barrier();
  });
  for (const nlohmann::json& d : described) {
    ASSERT_TRUE(d.is_object());
    EXPECT_EQ(d["transport"], "ucx");
    EXPECT_FALSE(d["ucx_version"].get<std::string>().empty());
    EXPECT_EQ(d["requested"]["UCX_TLS"], GetParam().tls);
    EXPECT_EQ(d["effective"]["UCX_TLS"], GetParam().tls);
    ASSERT_EQ(d["endpoints"].size(), 1u) << d.dump(2);
    const nlohmann::json& ep = d["endpoints"][0];
    ASSERT_FALSE(ep["lanes"].empty()) << d.dump(2);
    for (const auto& lane : ep["lanes"]) EXPECT_FALSE(lane["device"].get<std::string>().empty());
    bool carried = false;
    const auto& want = GetParam().message_transports;
    for (const auto& lane : ep["lanes"]) {
      auto uses = lane["uses"].get<std::vector<std::string>>();
      bool am = std::find(uses.begin(), uses.end(), "am") != uses.end();
      carried = carried || (am && std::find(want.begin(), want.end(),
                                            lane["transport"].get<std::string>()) != want.end());
    }
    EXPECT_TRUE(carried) << d.dump(2);
  }
}

// What --idle auto decides by (launch/job.cpp): shared memory alone needs no kernel CPU time.
TEST_P(UcxConnect, KernelCarriesTrafficUnlessSharedMemoryAlone) {
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(GetParam()));
    EXPECT_TRUE(t->kernel_carries_traffic());  // nothing known before connect()
    int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    EXPECT_EQ(t->kernel_carries_traffic(), GetParam().name != "shm") << t->describe().dump(2);
    boot.barrier();
  });
}

TEST_P(UcxConnect, RegisterAfterConnectIsRefused) {
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(GetParam()));
    std::vector<uint8_t> buf(64);
    int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    EXPECT_THROW(t->register_memory(buf.data(), buf.size()), Error);
    boot.barrier();
  });
}

// Error mode "peer": a rank that goes away shows up as failed posts, failed completions or
// poll() == -1 within a bounded time, not as a hang.
TEST_P(UcxConnect, DeadPeerSurfacesAsAnError) {
  if (!GetParam().detects_dead_peer)
    GTEST_SKIP() << "UCX 1.13 cannot detect a dead peer over " << GetParam().tls;
  std::atomic<bool> gone{false};
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(GetParam()));
    std::vector<uint8_t> buf(4096);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    boot.barrier();
    Completion c[4];
    if (rank == 1) {
      t.reset();  // the peer disappears
      gone = true;
      return;
    }
    // Keep progressing while the peer closes, as a live rank would.
    while (!gone) t->poll(c);
    // The failure may already have been seen while progressing: then the post fails.
    bool saw_error = t->post_recv(1, reg, 0, 64, 1) == Status::failed;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!saw_error && std::chrono::steady_clock::now() < deadline) {
      saw_error = t->post_send(1, reg, 64, 64, 2, true) == Status::failed;
      int n = t->poll(c);
      saw_error = saw_error || n < 0;
      for (int i = 0; i < n; ++i) saw_error = saw_error || !c[i].ok;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_TRUE(saw_error) << "no error 30 s after the peer went away";
    EXPECT_NE(t->last_error(), "");
  });
}

// A job quitting early: sends still wait for receives the peer will never post (rendezvous),
// and both ranks close together. Closing ends those sends and returns in bounded time. (UCX
// 1.13.1 aborts the process, in ucp_ep_destroy_base, when the worker is destroyed with such a
// send left on an endpoint of error mode "peer"; a graceful close does not end it.)
TEST_P(UcxConnect, ClosesWhileSendsWaitForAPeerThatQuits) {
  constexpr uint32_t kDepth = 4;
  constexpr size_t kSize = size_t{64} << 10;
  // Rendezvous on every fabric; each test runs in a process of its own (ctest).
  ASSERT_EQ(setenv("UCX_RNDV_THRESH", "1024", 1), 0);
  for (int round = 0; round < 2; ++round) {
    run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
      TransportOptions o = options_for(GetParam());
      o.send_depth = kDepth;
      auto t = make_ucx_transport(o);
      std::vector<uint8_t> buf(kSize);
      RegionId reg = t->register_memory(buf.data(), buf.size());
      const int peer = 1 - rank;
      t->connect(boot, std::span<const int>(&peer, 1));
      if (rank == 0) post_sends_the_peer_holds(*t, reg, kDepth, kSize);
      boot.barrier();
      auto t0 = std::chrono::steady_clock::now();
      t.reset();
      EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5))
          << "rank " << rank << ", round " << round;
    });
  }
  unsetenv("UCX_RNDV_THRESH");
}

// The job's end (Job::verdict): both ranks disconnect while the other still runs, then meet in
// a barrier. Every endpoint closes there, within its limit and silently; the transport then
// refuses the datapath, and its destruction has nothing left to close.
TEST_P(UcxConnect, DisconnectClosesWhileThePeerRunsAndRefusesPostsAfter) {
  testing::internal::CaptureStderr();
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(GetParam()));
    std::vector<uint8_t> buf(64);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    if (rank == 1)
      post_or_throw(
          *t, [&] { return t->post_recv(0, reg, 0, 8, 1); }, "recv");
    boot.barrier();
    if (rank == 0)
      post_or_throw(
          *t, [&] { return t->post_send(1, reg, 0, 8, 2, true); }, "send");
    wait_completions(*t, 1);
    // A receive nobody will match: disconnect cancels it.
    post_or_throw(
        *t, [&] { return t->post_recv(peer, reg, 8, 8, 3); }, "recv");
    const auto t0 = std::chrono::steady_clock::now();
    t->disconnect(std::chrono::seconds(10));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5)) << "rank " << rank;
    boot.barrier();
    EXPECT_EQ(t->post_send(peer, reg, 0, 8, 4, true), Status::failed);
    EXPECT_NE(t->last_error().find("not a connected peer"), std::string::npos) << t->last_error();
    t.reset();
  });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("timed out"), std::string::npos) << err;
  EXPECT_EQ(err.find("abandoned"), std::string::npos) << err;
}

INSTANTIATE_TEST_SUITE_P(Fabrics, UcxConnect, ::testing::ValuesIn(all_fabrics()),
                         [](const auto& tp) { return tp.param.name; });

TEST(UcxConnectErrors, TlsMismatchNamesBothChoices) {
  auto errors = run_ranks(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o;
    o.ucx_tls = rank == 0 ? "tcp" : "sm";
    auto t = make_ucx_transport(o);
    int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
  });
  EXPECT_NE(errors[0].find("rank 1 uses UCX_TLS=sm, this rank uses UCX_TLS=tcp: set the same on "
                           "every rank"),
            std::string::npos)
      << errors[0];
  EXPECT_NE(errors[1].find("rank 0 uses UCX_TLS=tcp, this rank uses UCX_TLS=sm"), std::string::npos)
      << errors[1];
}

TEST(UcxConnectErrors, RegionCountMismatchIsNamed) {
  auto errors = run_ranks(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o;
    o.ucx_tls = "tcp";
    auto t = make_ucx_transport(o);
    std::vector<uint8_t> buf(64);
    if (rank == 0) t->register_memory(buf.data(), buf.size());
    int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
  });
  EXPECT_NE(errors[1].find("rank 0 registered 1 memory regions, this rank 0"), std::string::npos)
      << errors[1];
}

TEST(UcxConnectErrors, UnknownTransportIsNamed) {
  TransportOptions o;
  o.ucx_tls = "no_such_transport";
  try {
    auto t = make_ucx_transport(o);
    // UCX 1.13 may accept the name and find no resources only later; then connect must say.
    auto errors = run_ranks(2, [&](int rank, Bootstrap& boot) {
      auto tr = make_ucx_transport(o);
      int peer = 1 - rank;
      tr->connect(boot, std::span<const int>(&peer, 1));
    });
    EXPECT_NE(errors[0].find("UCX_TLS=no_such_transport"), std::string::npos) << errors[0];
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("UCX_TLS=no_such_transport"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dlcnet::test
