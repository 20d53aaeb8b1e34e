#include "ucx_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "core/inprocess_bootstrap.hpp"

namespace dlcnet::test {

std::vector<Fabric> all_fabrics() {
  return {
      {"tcp", "tcp", false, {"tcp"}, true},
      // sysv or posix carry messages, cma carries RMA and large messages.
      {"shm", "sm", false, {"sysv", "posix"}, false},
      // rc_verbs carries everything; tcp only wires it up. UCX's usual helper for that,
      // ud_verbs ("rc_v"), never delivers a packet between two workers on rxe0 in the
      // Soft-RoCE guest (UCX 1.13, kernel 6.1), so RC endpoints would never connect there.
      {"rc_verbs", "rc_verbs,tcp:aux", true, {"rc_verbs"}, true},
  };
}

std::string rdma_device() {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/infiniband", ec))
    return e.path().filename().string() + ":1";
  return "";
}

TransportOptions options_for(const Fabric& f) {
  TransportOptions o;
  o.ucx_tls = f.tls;
  if (f.needs_rdma) o.device = rdma_device() + ",lo";  // lo for the tcp wire-up lane
  o.connect_timeout_ms = 10000;
  return o;
}

std::vector<std::string> run_ranks(int ranks, const std::function<void(int, Bootstrap&)>& fn) {
  auto group = make_inprocess_group(ranks, std::chrono::seconds(20));
  std::vector<std::string> errors(static_cast<size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        fn(r, *group[r]);
      } catch (const std::exception& e) {
        errors[r] = e.what();
        if (errors[r].empty()) errors[r] = "exception without text";
      }
    });
  }
  for (auto& t : threads) t.join();
  return errors;
}

void run_ranks_ok(int ranks, const std::function<void(int, Bootstrap&)>& fn) {
  auto errors = run_ranks(ranks, fn);
  for (int r = 0; r < ranks; ++r) EXPECT_EQ(errors[r], "") << "rank " << r;
}

std::vector<Completion> wait_completions(Transport& t, size_t count,
                                         std::chrono::milliseconds limit) {
  std::vector<Completion> got;
  Completion buf[16];
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (got.size() < count) {
    int n = t.poll(buf);
    if (n < 0) throw std::runtime_error("poll: " + t.last_error());
    for (int i = 0; i < n; ++i) {
      if (!buf[i].ok)
        throw std::runtime_error("completion wr_id " + std::to_string(buf[i].wr_id) + " (" +
                                 to_string(buf[i].op) + ") failed: " + buf[i].error);
      got.push_back(buf[i]);
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("timed out with " + std::to_string(got.size()) + " of " +
                               std::to_string(count) + " completions");
  }
  return got;
}

void post_sends_the_peer_holds(Transport& t, RegionId reg, uint32_t count, size_t size) {
  for (uint32_t i = 0; i < count; ++i)
    ASSERT_EQ(t.post_send(1, reg, 0, size, i, false), Status::ok) << t.last_error();
  Completion c[4];
  EXPECT_EQ(t.poll(c), 0);  // unsignaled, and not done: the peer has posted nothing
}

void post_or_throw(Transport& t, const std::function<Status()>& post, const char* what) {
  Status s = post();
  if (s != Status::ok)
    throw std::runtime_error(std::string(what) + ": " +
                             (s == Status::busy ? "busy" : t.last_error()));
}

void fill(std::vector<uint8_t>& buf, size_t offset, size_t length, int rank) {
  for (size_t i = 0; i < length; ++i) buf[offset + i] = pattern(rank, i);
}

size_t first_mismatch(const std::vector<uint8_t>& buf, size_t offset, size_t length, int rank) {
  for (size_t i = 0; i < length; ++i)
    if (buf[offset + i] != pattern(rank, i)) return i;
  return SIZE_MAX;
}

}  // namespace dlcnet::test
