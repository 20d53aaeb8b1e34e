// run_bench() with real patterns over two UcxTransports in threads of one process (tcp and
// shared memory), wired as dlc-bench wires them: rank 0 responds, rank 1 initiates. Checks what
// the harness returns per size, the records it writes, and that a run whose ends disagree or
// whose peer dies ends with an error within the spec's timeout instead of hanging.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "core/record.hpp"
#include "patterns/p2p/harness.hpp"
#include "patterns/p2p/pattern.hpp"
#include "tests/ucx/ucx_test_support.hpp"
#include "ucx/ucx_transport.hpp"

namespace dlcnet::test {
namespace {

constexpr int kResponder = 0;
constexpr int kInitiator = 1;

std::vector<Fabric> host_fabrics() {
  std::vector<Fabric> out;
  for (const Fabric& f : all_fabrics())
    if (!f.needs_rdma) out.push_back(f);
  return out;
}

BenchSpec spec_of(BenchKind kind, Op op, std::vector<uint64_t> sizes, uint64_t iterations) {
  BenchSpec s;
  s.kind = kind;
  s.op = op;
  s.sizes = std::move(sizes);
  s.iterations = iterations;
  s.warmup = 5;
  s.tx_depth = 16;
  s.timeout_s = 10;
  return s;
}

// What one end of a run saw.
struct End {
  BenchResult result;
  std::vector<uint64_t> streamed;  // bytes of each SizeResult passed to on_size, in order
};

// Both ends of a dlc-bench run, each with its own spec (they agree unless a test says not),
// its transport made as dlc-bench makes it (send depth = tx depth). The initiator writes its
// records to `records_path` when that is not empty. Returns each rank's exception text.
std::vector<std::string> run_pair(const Fabric& f, const BenchSpec (&specs)[2],
                                  const std::string& records_path, End (&ends)[2]) {
  return run_ranks(2, [&](int rank, Bootstrap& boot) {
    const BenchSpec& spec = specs[rank];
    TransportOptions o = options_for(f);
    o.send_depth = spec.tx_depth;
    auto t = make_ucx_transport(o);
    const bool initiator = rank == kInitiator;
    PeerSession s(*t, boot, 1 - rank, initiator, spec);
    const int peer = s.peer();
    t->connect(boot, std::span<const int>(&peer, 1));
    std::unique_ptr<RecordWriter> records;
    if (initiator && !records_path.empty()) records = std::make_unique<RecordWriter>(records_path);
    std::unique_ptr<Pattern> p = make_pattern(spec.kind, spec.op);
    End& e = ends[rank];
    e.result = run_bench(s, *p, records.get(),
                         [&](const SizeResult& r) { e.streamed.push_back(r.bytes); });
  });
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("dlcnet_harness_" + std::to_string(::getpid()) + "_" + name + ".csv"))
      .string();
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string field; std::getline(ss, field, ',');) out.push_back(field);
  return out;
}

// The records file holds the header, then `iterations` lines per size, in order, numbered from
// 0, each from the initiator to the responder with the size's byte count and post <= completion.
void expect_records(const std::string& path, const BenchSpec& spec) {
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, RecordWriter::header());
  uint64_t seq = 0;
  for (uint64_t size : spec.sizes) {
    for (uint64_t i = 0; i < spec.iterations; ++i, ++seq) {
      SCOPED_TRACE("size " + std::to_string(size) + ", message " + std::to_string(i));
      ASSERT_TRUE(std::getline(in, line)) << "records end after " << seq << " lines";
      // seq,op,bytes,src,dst,signaled,planned_ns,post_ns,complete_ns,arrival_ns,key,opnum
      const std::vector<std::string> f = split(line);
      ASSERT_EQ(f.size(), 12u) << line;
      EXPECT_EQ(f[0], std::to_string(seq));
      EXPECT_EQ(f[1], to_string(spec.op));
      EXPECT_EQ(f[2], std::to_string(size));
      EXPECT_EQ(f[3], std::to_string(kInitiator));
      EXPECT_EQ(f[4], std::to_string(kResponder));
      const int64_t post = std::stoll(f[7]);
      const int64_t complete = std::stoll(f[8]);
      EXPECT_GT(post, 0);
      EXPECT_LE(post, complete);
    }
  }
  EXPECT_FALSE(std::getline(in, line)) << "more records than messages: " << line;
}

class Harness : public ::testing::TestWithParam<Fabric> {
 protected:
  void TearDown() override {
    if (!records_.empty()) std::remove(records_.c_str());
  }
  // Runs `spec` on both ends with records; both must succeed, the initiator alone gets one
  // result per size, streamed in order. Call through ASSERT_NO_FATAL_FAILURE.
  void run_both(const BenchSpec& spec, const std::string& tag) {
    records_ = temp_path(GetParam().name + tag);
    const BenchSpec specs[2] = {spec, spec};
    const auto errors = run_pair(GetParam(), specs, records_, ends_);
    ASSERT_EQ(errors[kResponder], "");
    ASSERT_EQ(errors[kInitiator], "");
    EXPECT_TRUE(ends_[kResponder].result.sizes.empty());
    ASSERT_EQ(ends_[kInitiator].result.sizes.size(), spec.sizes.size());
    EXPECT_EQ(ends_[kInitiator].streamed, spec.sizes);
  }
  std::string records_;
  End ends_[2];
};

TEST_P(Harness, LatencyOverSendGivesOneResultPerSizeAndOneRecordPerMessage) {
  const BenchSpec spec = spec_of(BenchKind::lat, Op::send, {64, 64 << 10}, 50);
  ASSERT_NO_FATAL_FAILURE(run_both(spec, "_lat_send"));
  const BenchResult& r = ends_[kInitiator].result;
  EXPECT_EQ(r.spec.sizes, spec.sizes);
  for (size_t k = 0; k < r.sizes.size(); ++k) {
    const SizeResult& s = r.sizes[k];
    SCOPED_TRACE(s.bytes);
    EXPECT_EQ(s.bytes, spec.sizes[k]);
    EXPECT_EQ(s.iterations, spec.iterations);
    EXPECT_EQ(s.latency.count, spec.iterations);
    EXPECT_GT(s.latency.min, 0);
    EXPECT_LE(s.latency.min, s.latency.p50);
    EXPECT_LE(s.latency.p50, s.latency.p99);
    EXPECT_LE(s.latency.p99, s.latency.max);
    EXPECT_LT(s.latency.max, 10.0);  // seconds: a sanity bound, not a benchmark
  }
  expect_records(records_, spec);
}

TEST_P(Harness, BandwidthOverWriteGivesOneResultPerSizeAndOneRecordPerMessage) {
  const BenchSpec spec = spec_of(BenchKind::bw, Op::write, {4096, 64 << 10}, 200);
  ASSERT_NO_FATAL_FAILURE(run_both(spec, "_bw_write"));
  const BenchResult& r = ends_[kInitiator].result;
  for (size_t k = 0; k < r.sizes.size(); ++k) {
    const SizeResult& s = r.sizes[k];
    SCOPED_TRACE(s.bytes);
    EXPECT_EQ(s.bytes, spec.sizes[k]);
    EXPECT_EQ(s.iterations, spec.iterations);
    EXPECT_EQ(s.bandwidth.messages, spec.iterations);
    EXPECT_EQ(s.bandwidth.bytes, spec.iterations * spec.sizes[k]);
    EXPECT_GT(s.bandwidth.seconds, 0);
    EXPECT_GT(s.bandwidth.average_bps, 0);
    EXPECT_GE(s.bandwidth.peak_bps, s.bandwidth.average_bps);
    EXPECT_GT(s.bandwidth.message_rate, 0);
  }
  expect_records(records_, spec);
}

// The ends disagree on the operation (dlc-bench refuses that before the harness runs; the
// harness itself must not hang on it): the initiator sends pings and waits for a reply that
// never comes, the responder watches its memory for a write that never comes. Both give up
// after the spec's timeout.
TEST_P(Harness, EndsThatDisagreeFailWithinTheTimeout) {
  BenchSpec send = spec_of(BenchKind::lat, Op::send, {64}, 20);
  send.timeout_s = 2;
  BenchSpec write = send;
  write.op = Op::write;
  End ends[2];
  const BenchSpec specs[2] = {write, send};
  const auto start = std::chrono::steady_clock::now();
  const auto errors = run_pair(GetParam(), specs, "", ends);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_NE(errors[kInitiator], "");
  EXPECT_NE(errors[kResponder], "");
  EXPECT_NE(errors[kInitiator].find("waiting for"), std::string::npos) << errors[kInitiator];
  // The in-process bootstrap would give up only after 20 s: this is the harness's own timeout.
  EXPECT_LT(took, std::chrono::seconds(15));
}

// The responder goes through the size's barriers and then disappears with its transport: the
// initiator's first wait fails (a failed completion, or no progress within the timeout).
TEST_P(Harness, DeadPeerFailsTheInitiatorWithinTheTimeout) {
  BenchSpec spec = spec_of(BenchKind::lat, Op::send, {64}, 20);
  spec.warmup = 0;
  spec.timeout_s = 2;
  const auto start = std::chrono::steady_clock::now();
  const auto errors = run_ranks(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o = options_for(GetParam());
    o.send_depth = spec.tx_depth;
    auto t = make_ucx_transport(o);
    PeerSession s(*t, boot, 1 - rank, rank == kInitiator, spec);
    const int peer = s.peer();
    t->connect(boot, std::span<const int>(&peer, 1));
    if (rank == kResponder) {
      boot.barrier();  // run_bench's fence before the size
      boot.barrier();
      return;  // the session and the transport go away
    }
    std::unique_ptr<Pattern> p = make_pattern(spec.kind, spec.op);
    run_bench(s, *p, nullptr);
  });
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(errors[kResponder], "");
  EXPECT_NE(errors[kInitiator], "") << "run_bench returned with its peer gone";
  EXPECT_LT(took, std::chrono::seconds(15));
}

INSTANTIATE_TEST_SUITE_P(Fabrics, Harness, ::testing::ValuesIn(host_fabrics()),
                         [](const auto& tp) { return tp.param.name; });

}  // namespace
}  // namespace dlcnet::test
