// Two verbs transports on one device in one process (threads of make_inprocess_group(2)):
// the rdma-core way to test a transport end to end without a second host.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/transport.hpp"

namespace dlcnet::test {

// Empty when an RDMA device with an ACTIVE port exists, else why device tests skip.
std::string no_device_reason();

// Device tests derive from this: they skip, with the reason, where no device exists.
class VerbsDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

struct VerbsPair {
  std::vector<uint8_t> buf[2];
  std::unique_ptr<Transport> t[2];
  RegionId region[2] = {0, 0};
};

// Creates both transports, registers a `buffer_bytes` buffer on each and connects them
// concurrently. Rethrows the first exception either rank raised.
std::unique_ptr<VerbsPair> make_verbs_pair(const TransportOptions& opts, size_t buffer_bytes);

// Polls `t` until `n` completions arrived, poll() fails or `timeout` passes (the test then
// fails with what was seen). Soft-RoCE under emulation is slow: the default is generous.
std::vector<Completion> wait_completions(
    Transport& t, size_t n, std::chrono::milliseconds timeout = std::chrono::seconds(30));

// Deterministic bytes that differ per offset and per seed.
void fill_pattern(uint8_t* p, size_t n, uint32_t seed);
bool check_pattern(const uint8_t* p, size_t n, uint32_t seed);

}  // namespace dlcnet::test
