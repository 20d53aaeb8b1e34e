// Device test: the --rdma-cm path connects through librdmacm and moves verified data.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/verbs/verbs_pair.hpp"
#include "verbs/rc_retry.hpp"

namespace dlcnet::test {
namespace {

TEST(VerbsRdmaCm, ConnectsAndMovesData) {
  if (const std::string why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  TransportOptions opts;
  opts.rdma_cm = true;
  opts.connect_timeout_ms = 20000;
  auto p = make_verbs_pair(opts, 1 << 20);

  constexpr size_t kSize = 4096;
  fill_pattern(p->buf[0].data(), kSize, 77);
  ASSERT_EQ(p->t[1]->post_recv(0, p->region[1], 0, kSize, 1), Status::ok);
  ASSERT_EQ(p->t[0]->post_send(1, p->region[0], 0, kSize, 2, true), Status::ok)
      << p->t[0]->last_error();
  const auto got = wait_completions(*p->t[1], 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].ok) << got[0].error;
  EXPECT_EQ(got[0].bytes, kSize);
  EXPECT_TRUE(check_pattern(p->buf[1].data(), kSize, 77));
  EXPECT_EQ(wait_completions(*p->t[0], 1).size(), 1u);

  // Keys still travel through the bootstrap: write from rank 1 into rank 0, read it back.
  constexpr size_t kBig = 256 << 10;
  fill_pattern(p->buf[1].data(), kBig, 78);
  ASSERT_EQ(p->t[1]->post_write(0, p->region[1], 0, kBig, 8192, 3, true), Status::ok)
      << p->t[1]->last_error();
  ASSERT_EQ(wait_completions(*p->t[1], 1).size(), 1u);
  EXPECT_TRUE(check_pattern(p->buf[0].data() + 8192, kBig, 78));
  ASSERT_EQ(p->t[1]->post_read(0, p->region[1], kBig, kBig, 8192, 4, true), Status::ok);
  const auto read = wait_completions(*p->t[1], 1);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_TRUE(read[0].ok) << read[0].error;
  EXPECT_TRUE(check_pattern(p->buf[1].data() + kBig, kBig, 78));

  const nlohmann::json d = p->t[0]->describe();
  EXPECT_EQ(d["connection"], "rdma-cm");
  EXPECT_EQ(d["qp"]["retry_cnt"], 6);
  EXPECT_EQ(d["qp"]["timeout"],
            static_cast<int>(verbs::ack_timeout()));  // 14 unless DLCNET_VERBS_ACK_TIMEOUT
  std::cout << d.dump() << "\n";
}

}  // namespace
}  // namespace dlcnet::test
