// The TCP bootstrap with 1024 ranks in one process (threads on 127.0.0.1): rank 0 serves the
// joins concurrently (a rank that is slow to say hello holds up no other) and handles a
// constant number of frames per rank and collective, so its load grows linearly.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "core/error.hpp"
#include "core/socket.hpp"
#include "core/tcp_bootstrap.hpp"
#include "core/tcp_bootstrap_impl.hpp"
#include "tests/core/tcp_bootstrap_test_config.hpp"

namespace dlcnet {
namespace {

using std::chrono::milliseconds;

constexpr int kRanks = 1024;

TcpBootstrapConfig scale_config(int rank, int size, uint16_t port) {
  return local_config(rank, size, port, milliseconds(20000), milliseconds(60000));
}

// Ranks first..size-1 as threads: each joins, then runs `body`; their errors are counted.
class RankThreads {
 public:
  RankThreads(int first, int size, uint16_t port, std::function<void(TcpBootstrap&)> body) {
    for (int r = first; r < size; ++r) {
      threads_.emplace_back([=, this] {
        try {
          TcpBootstrap b(scale_config(r, size, port));
          b.join();
          ++joined_;
          body(b);
        } catch (const std::exception& e) {
          ++errors_;
          ADD_FAILURE() << "rank " << r << ": " << e.what();
        }
      });
    }
  }
  ~RankThreads() { wait(); }
  void wait() {
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
  }
  int joined() const { return joined_.load(); }
  int errors() const { return errors_.load(); }

 private:
  std::vector<std::thread> threads_;
  std::atomic<int> joined_{0};
  std::atomic<int> errors_{0};
};

TEST(TcpBootstrapScale, StalledHelloDelaysNoOtherJoin) {
  // Rank 0 waits up to 40 s for a hello: one hello at a time, no other rank could join before
  // rank 1's completes (or that time passes); served together, they all join meanwhile.
  TcpBootstrapConfig rc = scale_config(0, kRanks, 0);
  rc.hello_timeout = milliseconds(40000);
  rc.join_timeout = milliseconds(60000);
  TcpBootstrap root(rc);
  const uint16_t port = root.port();
  // Rank 1 connects first and sends half its hello, then stalls: rank 0 takes its connection
  // before any other.
  Socket stalled = tcp_connect("127.0.0.1", port, Deadline::after(milliseconds(5000)), "rank 1");
  WireWriter hello;
  hello.u32(1).u32(kRanks).u64(42);
  const Bytes frame = encode_frame(kHello, hello.bytes());
  const size_t half = frame.size() / 2;
  send_all(stalled, std::span(frame).first(half), Deadline::after(milliseconds(1000)), "root");
  std::string root_error;
  std::thread root_join([&] {
    try {
      root.join();
    } catch (const std::exception& e) {
      root_error = e.what();
    }
  });
  std::atomic<bool> release{false};
  RankThreads others(2, kRanks, port, [&](TcpBootstrap&) {
    while (!release) std::this_thread::sleep_for(milliseconds(10));
  });
  // Every other rank is welcomed while rank 1's hello is incomplete.
  const auto start = std::chrono::steady_clock::now();
  while (others.joined() + others.errors() < kRanks - 2 &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(30))
    std::this_thread::sleep_for(milliseconds(5));
  const double waited_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(others.joined(), kRanks - 2)
      << "after " << waited_s << " s the other ranks still wait for rank 1's hello";
  // Rank 1 finishes its hello now and is welcomed too.
  send_all(stalled, std::span(frame).subspan(half), Deadline::after(milliseconds(1000)), "root");
  const Frame answer = recv_frame(stalled, Deadline::after(milliseconds(10000)), "root");
  EXPECT_EQ(answer.type, kWelcome);
  root_join.join();
  EXPECT_EQ(root_error, "");
  release = true;
  others.wait();
}

// Frames rank 0 handles in a join followed by `collectives` collectives of `n` ranks.
BootstrapTraffic root_traffic(int n, int collectives) {
  TcpBootstrap root(scale_config(0, n, 0));
  std::atomic<int> wrong{0};
  auto body = [&](TcpBootstrap& b) {
    for (int k = 0; k < collectives; ++k) {
      const std::vector<Bytes> all = b.allgather(Bytes{uint8_t(b.rank() & 0xff), uint8_t(k)});
      for (int r = 0; r < n; ++r) wrong += all[r] != Bytes{uint8_t(r & 0xff), uint8_t(k)};
    }
    if (b.rank() == 0) return;
    const BootstrapTraffic t = b.traffic();
    // Every other rank: one hello and one frame per collective each way.
    wrong += t.frames_sent != uint64_t(1 + collectives);
    wrong += t.frames_received != uint64_t(1 + collectives);
  };
  RankThreads others(1, n, root.port(), body);
  root.join();
  body(root);
  others.wait();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(others.errors(), 0);
  return root.traffic();
}

TEST(TcpBootstrapScale, FramesGrowLinearlyWithTheRanks) {
  constexpr int kCollectives = 3;
  std::vector<double> bytes_per_rank;
  for (int n : {kRanks / 8, kRanks}) {
    const BootstrapTraffic t = root_traffic(n, kCollectives);
    // Rank 0: a hello in and a welcome out per rank, one frame in and out per rank and
    // collective: 4 * (n - 1) frames for a join and a collective, never n squared.
    EXPECT_EQ(t.frames_received, uint64_t(n - 1) * (1 + kCollectives)) << n << " ranks";
    EXPECT_EQ(t.frames_sent, uint64_t(n - 1) * (1 + kCollectives)) << n << " ranks";
    bytes_per_rank.push_back(double(t.bytes_received) / (n - 1));
  }
  // And each rank's blob reaches rank 0 once per allgather (not once per rank): the bytes it
  // receives per rank stay the same, 8 times the ranks or not.
  EXPECT_LT(bytes_per_rank[1], 1.1 * bytes_per_rank[0])
      << bytes_per_rank[0] << " bytes per rank at rank 0 with " << kRanks / 8 << " ranks, "
      << bytes_per_rank[1] << " with " << kRanks;
}

}  // namespace
}  // namespace dlcnet
