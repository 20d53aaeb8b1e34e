// Device tests: failures are named (completion status, bad peer lists, misuse) and describe()
// reports what the QPs actually run with.
#include <gtest/gtest.h>
#include <infiniband/verbs.h>
#include <nlohmann/json.hpp>

#include <thread>

#include "core/error.hpp"
#include "core/inprocess_bootstrap.hpp"
#include "tests/verbs/verbs_pair.hpp"
#include "verbs/rc_retry.hpp"
#include "verbs/verbs_transport.hpp"

namespace dlcnet::test {
namespace {

using VerbsErrors = VerbsDeviceTest;

TEST_F(VerbsErrors, TooSmallReceiveBufferFailsByName) {
  auto p = make_verbs_pair({}, 8192);
  ASSERT_EQ(p->t[1]->post_recv(0, p->region[1], 0, 64, 7), Status::ok);
  ASSERT_EQ(p->t[0]->post_send(1, p->region[0], 0, 4096, 8, true), Status::ok);
  const auto got = wait_completions(*p->t[1], 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].ok);
  EXPECT_EQ(got[0].wr_id, 7u);
  EXPECT_EQ(got[0].op, Op::recv);
  ASSERT_NE(got[0].error, nullptr);
  // The spec's status is IBV_WC_LOC_LEN_ERR (mlx5 reports it); rxe reports the same overrun as
  // IBV_WC_LOC_QP_OP_ERR (rxe_resp.c, RESPST_ERR_LENGTH). Either way it arrives by name.
  const std::string status = got[0].error;
  EXPECT_TRUE(status == ibv_wc_status_str(IBV_WC_LOC_LEN_ERR) ||
              status == ibv_wc_status_str(IBV_WC_LOC_QP_OP_ERR))
      << status;
  EXPECT_NE(p->t[1]->last_error().find(status), std::string::npos) << p->t[1]->last_error();
  EXPECT_NE(p->t[1]->last_error().find("rank 0"), std::string::npos) << p->t[1]->last_error();

  // The sender learns it too (the responder NAKs), by name and for its own wr_id.
  const auto sent = wait_completions(*p->t[0], 1);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_FALSE(sent[0].ok);
  EXPECT_EQ(sent[0].wr_id, 8u);
  EXPECT_EQ(sent[0].op, Op::send);

  // The QP is in error now: posting fails with the first cause, not a silent hang.
  EXPECT_EQ(p->t[1]->post_recv(0, p->region[1], 0, 64, 9), Status::failed);
  EXPECT_NE(p->t[1]->last_error().find(status), std::string::npos) << p->t[1]->last_error();
}

TEST_F(VerbsErrors, ReadBeyondTheRemoteRegionIsARemoteAccessError) {
#ifndef NDEBUG
  GTEST_SKIP() << "debug builds assert on remote bounds before the NIC can check them";
#endif
  auto p = make_verbs_pair({}, 4096);
  ASSERT_EQ(p->t[0]->post_read(1, p->region[0], 0, 64, 4096, 3, true), Status::ok);
  const auto c = wait_completions(*p->t[0], 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_FALSE(c[0].ok);
  EXPECT_EQ(c[0].op, Op::read);
  EXPECT_EQ(c[0].wr_id, 3u);
  ASSERT_NE(c[0].error, nullptr);
  EXPECT_STREQ(c[0].error, ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR));
  EXPECT_NE(p->t[0]->last_error().find("remote access error"), std::string::npos)
      << p->t[0]->last_error();
}

TEST_F(VerbsErrors, UnknownDeviceListsTheDevicesThatExist) {
  TransportOptions opts;
  opts.device = "mlx9";
  try {
    make_verbs_transport(opts);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string expected = "no RDMA device 'mlx9'; devices: " + active_verbs_devices()[0];
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

TEST_F(VerbsErrors, AsymmetricPeerListsFailOnBothSides) {
  auto boots = make_inprocess_group(2, std::chrono::seconds(30));
  std::string errors[2];
  std::unique_ptr<Transport> t[2] = {make_verbs_transport({}), make_verbs_transport({})};
  std::thread threads[2];
  for (int r = 0; r < 2; ++r) {
    threads[r] = std::thread([&, r] {
      const int one = 1;
      try {
        t[r]->connect(*boots[r], r == 0 ? std::span<const int>(&one, 1) : std::span<const int>());
      } catch (const Error& e) {
        errors[r] = e.what();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const std::string& e : errors) {
    EXPECT_NE(e.find("not symmetric: rank 0 lists rank 1 but rank 1 does not list rank 0"),
              std::string::npos)
        << e;
  }
}

TEST_F(VerbsErrors, MisuseIsRefusedWithAReason) {
  auto p = make_verbs_pair({}, 4096);
  EXPECT_EQ(p->t[0]->post_send(5, p->region[0], 0, 64, 0, true), Status::failed);
  EXPECT_NE(p->t[0]->last_error().find("rank 5 is not a connected peer"), std::string::npos);
  uint8_t late[64];
  EXPECT_THROW(p->t[0]->register_memory(late, sizeof late), Error);
}

TEST_F(VerbsErrors, DescribeReportsDeviceAndTheQpsActualSettings) {
  auto p = make_verbs_pair({}, 4096);
  const nlohmann::json d = p->t[0]->describe();
  EXPECT_EQ(d["transport"], "verbs");
  EXPECT_EQ(d["device"], active_verbs_devices()[0]);
  EXPECT_GE(d["ib_port"].get<int>(), 1);
  EXPECT_GE(d["gid_index"].get<int>(), 0);
  EXPECT_EQ(d["connection"], "oob-tcp");
  EXPECT_EQ(d["max_msg_sz"].get<uint64_t>(), p->t[0]->max_message_size());
  EXPECT_GT(p->t[0]->max_message_size(), 0u);
  EXPECT_LE(d["inline_size"].get<uint32_t>(), 220u);
  EXPECT_EQ(d["qp"]["path_mtu"], d["active_mtu"]);
  EXPECT_EQ(d["qp"]["timeout"],
            static_cast<int>(verbs::ack_timeout()));  // 14 unless DLCNET_VERBS_ACK_TIMEOUT
  EXPECT_EQ(d["qp"]["retry_cnt"], 6);
  if (d["link_layer"] == "Ethernet") {
    EXPECT_EQ(d["gid_type"], "RoCE v2");
    EXPECT_EQ(d["gid"].get<std::string>().rfind("::ffff:", 0), 0u) << d["gid"];
  }
  std::cout << d.dump() << "\n";
}

}  // namespace
}  // namespace dlcnet::test
