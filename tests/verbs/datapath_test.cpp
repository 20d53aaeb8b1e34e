// Device tests: data moves and is verified byte for byte; credits answer busy, never overflow.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "core/clock.hpp"
#include "tests/verbs/verbs_pair.hpp"

namespace dlcnet::test {
namespace {

using VerbsData = VerbsDeviceTest;

constexpr size_t kBuffer = 2 << 20;

TEST_F(VerbsData, SendRecvMovesDataAt64B4KiBAnd1MiB) {
  auto p = make_verbs_pair({}, kBuffer);
  uint32_t seed = 1;
  for (size_t size : {size_t{64}, size_t{4096}, size_t{1} << 20}) {
    SCOPED_TRACE(size);
    fill_pattern(p->buf[0].data(), size, ++seed);
    std::fill(p->buf[1].begin(), p->buf[1].end(), 0);
    ASSERT_EQ(p->t[1]->post_recv(0, p->region[1], 0, size, 100 + seed), Status::ok)
        << p->t[1]->last_error();
    ASSERT_EQ(p->t[0]->post_send(1, p->region[0], 0, size, 200 + seed, true), Status::ok)
        << p->t[0]->last_error();
    const auto sent = wait_completions(*p->t[0], 1);
    const auto got = wait_completions(*p->t[1], 1);
    ASSERT_EQ(sent.size(), 1u);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(sent[0].ok) << sent[0].error;
    EXPECT_EQ(sent[0].op, Op::send);
    EXPECT_EQ(sent[0].wr_id, 200 + seed);
    EXPECT_EQ(sent[0].peer, 1);
    EXPECT_EQ(sent[0].bytes, size);
    EXPECT_TRUE(got[0].ok) << got[0].error;
    EXPECT_EQ(got[0].op, Op::recv);
    EXPECT_EQ(got[0].wr_id, 100 + seed);
    EXPECT_EQ(got[0].peer, 0);
    EXPECT_EQ(got[0].bytes, size);
    EXPECT_TRUE(check_pattern(p->buf[1].data(), size, seed));
  }
}

TEST_F(VerbsData, SelectiveSignallingReportsOnlySignaledSendsAndAllReceives) {
  auto p = make_verbs_pair({}, kBuffer);
  constexpr int kCount = 64;
  constexpr size_t kSize = 4096;
  for (int i = 0; i < kCount; ++i) {
    ASSERT_EQ(p->t[1]->post_recv(0, p->region[1], i * kSize, kSize, i), Status::ok);
    fill_pattern(p->buf[0].data() + i * kSize, kSize, static_cast<uint32_t>(i));
  }
  for (int i = 0; i < kCount; ++i) {
    const bool signaled = i % 8 == 7;
    ASSERT_EQ(p->t[0]->post_send(1, p->region[0], i * kSize, kSize, i, signaled), Status::ok)
        << p->t[0]->last_error();
  }
  const auto sent = wait_completions(*p->t[0], kCount / 8);
  const auto got = wait_completions(*p->t[1], kCount);
  ASSERT_EQ(sent.size(), size_t{kCount / 8});
  for (size_t i = 0; i < sent.size(); ++i) EXPECT_EQ(sent[i].wr_id, i * 8 + 7);
  ASSERT_EQ(got.size(), size_t{kCount});
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(got[i].wr_id, static_cast<uint64_t>(i));  // RC delivers in order
    EXPECT_TRUE(check_pattern(p->buf[1].data() + i * kSize, kSize, static_cast<uint32_t>(i)));
  }
  // Nothing left over: a further poll reports nothing.
  Completion extra[4];
  EXPECT_EQ(p->t[0]->poll(extra), 0);
}

TEST_F(VerbsData, ZeroByteSendArrivesAsAnEmptyMessage) {
  auto p = make_verbs_pair({}, 4096);
  ASSERT_EQ(p->t[1]->post_recv(0, p->region[1], 0, 64, 1), Status::ok);
  ASSERT_EQ(p->t[0]->post_send(1, p->region[0], 0, 0, 2, true), Status::ok);
  const auto got = wait_completions(*p->t[1], 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].ok) << got[0].error;
  EXPECT_EQ(got[0].bytes, 0u);
  EXPECT_EQ(wait_completions(*p->t[0], 1).size(), 1u);
}

TEST_F(VerbsData, WriteAndReadMoveDataAtInlineAndLargeSizes) {
  auto p = make_verbs_pair({}, kBuffer);
  uint32_t seed = 10;
  for (size_t size : {size_t{64}, size_t{1} << 20}) {
    SCOPED_TRACE(size);
    // Write: local [0, size) lands at the peer's [4096, 4096 + size).
    fill_pattern(p->buf[0].data(), size, ++seed);
    ASSERT_EQ(p->t[0]->post_write(1, p->region[0], 0, size, 4096, 1, true), Status::ok)
        << p->t[0]->last_error();
    auto c = wait_completions(*p->t[0], 1);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_TRUE(c[0].ok) << c[0].error;
    EXPECT_EQ(c[0].op, Op::write);
    EXPECT_EQ(c[0].bytes, size);
    EXPECT_TRUE(check_pattern(p->buf[1].data() + 4096, size, seed));

    // Read: the peer's [0, size) lands in local [kBuffer / 2, kBuffer / 2 + size).
    fill_pattern(p->buf[1].data(), size, ++seed);
    ASSERT_EQ(p->t[0]->post_read(1, p->region[0], kBuffer / 2, size, 0, 2, true), Status::ok)
        << p->t[0]->last_error();
    c = wait_completions(*p->t[0], 1);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_TRUE(c[0].ok) << c[0].error;
    EXPECT_EQ(c[0].op, Op::read);
    EXPECT_EQ(c[0].bytes, size);
    EXPECT_TRUE(check_pattern(p->buf[0].data() + kBuffer / 2, size, seed));
  }
}

// The promise dlc-replay relies on to notify right behind a write (no wait for its completion):
// on one RC QP, a send posted after a write is received only once the write's data is placed.
TEST_F(VerbsData, SendPostedAfterAWriteArrivesAfterTheWritesData) {
  auto p = make_verbs_pair({}, kBuffer);
  EXPECT_TRUE(p->t[0]->orders_write_before_send());
  EXPECT_TRUE(p->t[1]->orders_write_before_send());
  constexpr size_t kWrite = size_t{1} << 20;
  uint32_t seed = 40;
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE(round);
    fill_pattern(p->buf[0].data() + kBuffer / 2, kWrite, ++seed);
    ASSERT_EQ(p->t[1]->post_recv(0, p->region[1], 0, 64, 10), Status::ok) << p->t[1]->last_error();
    // Unsignaled write, then the notification: no completion is awaited in between.
    ASSERT_EQ(p->t[0]->post_write(1, p->region[0], kBuffer / 2, kWrite, kBuffer / 2, 1, false),
              Status::ok)
        << p->t[0]->last_error();
    ASSERT_EQ(p->t[0]->post_send(1, p->region[0], 0, 64, 2, true), Status::ok)
        << p->t[0]->last_error();
    const auto got = wait_completions(*p->t[1], 1);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(got[0].ok) << got[0].error;
    EXPECT_EQ(got[0].op, Op::recv);
    // Checked as soon as the notification arrived.
    EXPECT_TRUE(check_pattern(p->buf[1].data() + kBuffer / 2, kWrite, seed));
    const auto sent = wait_completions(*p->t[0], 1);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].op, Op::send);
  }
}

TEST_F(VerbsData, FullSendQueueAnswersBusyUntilPolled) {
  TransportOptions opts;
  opts.send_depth = 8;
  auto p = make_verbs_pair(opts, 4096);
  for (int i = 0; i < 8; ++i) {
    ASSERT_EQ(p->t[0]->post_write(1, p->region[0], 0, 64, 64, i, true), Status::ok)
        << p->t[0]->last_error();
  }
  EXPECT_EQ(p->t[0]->post_write(1, p->region[0], 0, 64, 64, 8, true), Status::busy);
  EXPECT_EQ(p->t[0]->post_send(1, p->region[0], 0, 64, 8, true), Status::busy);
  EXPECT_EQ(wait_completions(*p->t[0], 8).size(), 8u);
  EXPECT_EQ(p->t[0]->post_write(1, p->region[0], 0, 64, 64, 9, true), Status::ok);
  EXPECT_EQ(wait_completions(*p->t[0], 1).size(), 1u);
}

TEST_F(VerbsData, UnsignaledRequestsAreRetiredByForcedSignalsNotReported) {
  TransportOptions opts;
  opts.send_depth = 8;
  auto p = make_verbs_pair(opts, 4096);
  for (int i = 0; i < 8; ++i) {
    ASSERT_EQ(p->t[0]->post_write(1, p->region[0], 0, 64, 64, i, false), Status::ok);
  }
  EXPECT_EQ(p->t[0]->post_write(1, p->region[0], 0, 64, 64, 8, false), Status::busy);
  Completion c[16];
  Status s = Status::busy;
  const int64_t deadline = now_ns() + 30'000'000'000;
  while (s == Status::busy && now_ns() < deadline) {
    ASSERT_EQ(p->t[0]->poll(c), 0) << "an unsignaled request was reported";
    s = p->t[0]->post_write(1, p->region[0], 0, 64, 64, 9, true);
  }
  ASSERT_EQ(s, Status::ok) << p->t[0]->last_error();
  const auto done = wait_completions(*p->t[0], 1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].wr_id, 9u);
}

TEST_F(VerbsData, FullReceiveQueueAnswersBusy) {
  TransportOptions opts;
  opts.recv_depth = 4;
  auto p = make_verbs_pair(opts, 4096);
  for (int i = 0; i < 4; ++i) ASSERT_EQ(p->t[1]->post_recv(0, p->region[1], 0, 64, i), Status::ok);
  EXPECT_EQ(p->t[1]->post_recv(0, p->region[1], 0, 64, 4), Status::busy);
  ASSERT_EQ(p->t[0]->post_send(1, p->region[0], 0, 64, 0, true), Status::ok);
  EXPECT_EQ(wait_completions(*p->t[1], 1).size(), 1u);
  EXPECT_EQ(p->t[1]->post_recv(0, p->region[1], 0, 64, 4), Status::ok);
}

}  // namespace
}  // namespace dlcnet::test
