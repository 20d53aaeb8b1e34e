// Two (or more) UcxTransports in one process, one thread per rank, over the in-process
// bootstrap; and the fabrics the tests run on.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/bootstrap.hpp"
#include "core/transport.hpp"

namespace dlcnet::test {

struct Fabric {
  std::string name;  // test name suffix
  std::string tls;   // UCX_TLS for every rank
  bool needs_rdma;   // skipped unless an RDMA device exists
  // Transports of which describe() must name one on a lane carrying messages ("am").
  std::vector<std::string> message_transports;
  bool detects_dead_peer;  // error mode "peer" possible (not over UCX 1.13 shared memory)
};

// gtest prints a parameter with this instead of its bytes.
inline void PrintTo(const Fabric& f, std::ostream* os) {
  *os << f.name << " (UCX_TLS=" << f.tls << ")";
}

// tcp, shared memory, and RC verbs (the last one only where /sys/class/infiniband lists one).
std::vector<Fabric> all_fabrics();
// First RDMA device with ":1" appended (UCX_NET_DEVICES syntax), "" when there is none.
std::string rdma_device();

TransportOptions options_for(const Fabric& f);

// Runs fn(rank, boot) on `ranks` threads; returns each rank's exception text ("" if none).
std::vector<std::string> run_ranks(int ranks, const std::function<void(int, Bootstrap&)>& fn);
// Same, but fails the calling test with each rank's exception.
void run_ranks_ok(int ranks, const std::function<void(int, Bootstrap&)>& fn);

// Polls until `count` completions arrived or `limit` passed (throws std::runtime_error then,
// or when poll() returns -1). Completions that are not ok also throw, naming wr_id and error.
std::vector<Completion> wait_completions(
    Transport& t, size_t count, std::chrono::milliseconds limit = std::chrono::seconds(20));

// Posts `count` unsignaled sends of `size` bytes from region `reg` to rank 1, which has posted
// no receive: with UCX_RNDV_THRESH below `size` they stay in flight (rendezvous). Fails the test
// unless every post is ok and poll() then reports nothing.
void post_sends_the_peer_holds(Transport& t, RegionId reg, uint32_t count, size_t size);

// Throws std::runtime_error naming `what` unless post() answers Status::ok.
void post_or_throw(Transport& t, const std::function<Status()>& post, const char* what);

// Byte i of rank r's test pattern.
inline uint8_t pattern(int rank, size_t i) {
  return static_cast<uint8_t>((i * 131u + static_cast<size_t>(rank) * 7u + (i >> 12)) & 0xff);
}
void fill(std::vector<uint8_t>& buf, size_t offset, size_t length, int rank);
// Index of the first byte that differs from rank's pattern, or SIZE_MAX.
size_t first_mismatch(const std::vector<uint8_t>& buf, size_t offset, size_t length, int rank);

}  // namespace dlcnet::test
