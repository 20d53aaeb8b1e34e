#include "tests/verbs/verbs_pair.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <thread>

#include "core/bootstrap.hpp"
#include "core/clock.hpp"
#include "core/inprocess_bootstrap.hpp"
#include "verbs/verbs_transport.hpp"

namespace dlcnet::test {

std::string no_device_reason() {
  if (!active_verbs_devices().empty()) return "";
  return "no RDMA device with an ACTIVE port (run under scripts/rdma-run.sh for Soft-RoCE)";
}

std::unique_ptr<VerbsPair> make_verbs_pair(const TransportOptions& opts, size_t buffer_bytes) {
  auto pair = std::make_unique<VerbsPair>();
  auto boots = make_inprocess_group(2, std::chrono::seconds(60));
  for (int r = 0; r < 2; ++r) {
    pair->buf[r].assign(buffer_bytes, 0);
    pair->t[r] = make_verbs_transport(opts);
    pair->region[r] = pair->t[r]->register_memory(pair->buf[r].data(), buffer_bytes);
  }
  std::exception_ptr error[2];
  std::thread threads[2];
  for (int r = 0; r < 2; ++r) {
    threads[r] = std::thread([&, r] {
      try {
        const int peer = 1 - r;
        pair->t[r]->connect(*boots[r], std::span<const int>(&peer, 1));
      } catch (...) {
        error[r] = std::current_exception();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (auto& e : error) {
    if (e) std::rethrow_exception(e);
  }
  return pair;
}

std::vector<Completion> wait_completions(Transport& t, size_t n,
                                         std::chrono::milliseconds timeout) {
  std::vector<Completion> got;
  const int64_t deadline = now_ns() + static_cast<int64_t>(timeout.count()) * 1'000'000;
  Completion batch[16];
  while (got.size() < n) {
    const int k = t.poll(batch);
    if (k < 0) {
      ADD_FAILURE() << "poll() failed: " << t.last_error();
      break;
    }
    got.insert(got.end(), batch, batch + k);
    if (k == 0 && now_ns() > deadline) {
      ADD_FAILURE() << "timed out with " << got.size() << " of " << n << " completions";
      break;
    }
  }
  return got;
}

void fill_pattern(uint8_t* p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>((i * 131 + i / 251 + seed) & 0xFF);
}

bool check_pattern(const uint8_t* p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != static_cast<uint8_t>((i * 131 + i / 251 + seed) & 0xFF)) return false;
  }
  return true;
}

}  // namespace dlcnet::test
