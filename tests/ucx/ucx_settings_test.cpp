#include "ucx/ucx_settings.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "core/wire.hpp"
#include "ucx/ucx_handles.hpp"
#include "ucx/ucx_host_id.hpp"
#include "ucx/ucx_peer_blob.hpp"

namespace dlcnet::ucx {
namespace {

TEST(UcxSettings, MismatchNamesBothChoices) {
  std::string m = selection_mismatch({"shm", "all"}, {"tcp", "all"}, 1);
  EXPECT_EQ(m, "rank 1 uses UCX_TLS=tcp, this rank uses UCX_TLS=shm: set the same on every rank");
  m = selection_mismatch({"tcp", "rxe0:1"}, {"tcp", "all"}, 3);
  EXPECT_EQ(m,
            "rank 3 uses UCX_NET_DEVICES=all, this rank uses UCX_NET_DEVICES=rxe0:1: set the same "
            "on every rank");
}

TEST(UcxSettings, ListOrderDoesNotMatter) {
  EXPECT_EQ(selection_mismatch({"tcp,self", "all"}, {"self,tcp", "all"}, 1), "");
}

TEST(UcxSettings, OptionsOverrideTheEnvironmentForThisContextOnly) {
  Config c = read_config();
  // Constructed, not assigned: GCC 12 at -O3 reports a false maybe-uninitialized inside
  // std::string's assignment here (the same family as GCC bug 105651).
  const TransportOptions o{.device = "lo", .ucx_tls = "tcp,self"};
  apply_options(c.get(), o);
  EXPECT_EQ(effective_selection(c.get()), (Selection{"tcp,self", "lo"}));
  Config untouched = read_config();
  EXPECT_NE(effective_selection(untouched.get()).net_devices, "lo");
}

// UCX pins pools of its own on an RDMA device and can retry for ever when the locked-memory
// limit stops it: warned about where it may use one, never for tcp or shared memory alone.
TEST(UcxSettings, MemlockWarningOnlyWhereUcxMayPinOnAnRdmaDevice) {
  EXPECT_EQ(memlock_warning({"tcp,sm", "all"}, 64 * 1024), "");
  EXPECT_EQ(memlock_warning({"all", "all"}, kMemlockEnoughForUcx), "");
  if (!may_use_rdma({"all", "all"})) {
    EXPECT_EQ(memlock_warning({"all", "all"}, 64 * 1024), "");
    GTEST_SKIP() << "no RDMA device: the warning's text needs one";
  }
  EXPECT_TRUE(may_use_rdma({"ud_verbs", "all"}));
  EXPECT_FALSE(may_use_rdma({"tcp:aux,sm", "all"}));
  const std::string w = memlock_warning({"all", "all"}, 64 * 1024);
  EXPECT_NE(w.find("UCX_TLS=all"), std::string::npos) << w;
  EXPECT_NE(w.find("raise ulimit -l"), std::string::npos) << w;
  EXPECT_NE(w.find("--ucx-tls tcp,sm"), std::string::npos) << w;
}

TEST(UcxPeerBlob, RoundTrips) {
  PeerBlob b{{1, 2, 3}, {"tcp", "all"}, "boot/1/2/3/4", {{0x1000, 64, {9, 9}}, {0x2000, 128, {}}}};
  EXPECT_EQ(decode_peer_blob(encode_peer_blob(b), 2), b);
}

TEST(UcxPeerBlob, ForeignAndTruncatedBlobsNameTheRank) {
  PeerBlob b{{1, 2, 3}, {"tcp", "all"}, "", {}};
  Bytes enc = encode_peer_blob(b);
  enc.pop_back();
  try {
    decode_peer_blob(enc, 5);
    FAIL() << "no exception";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 5"), std::string::npos) << e.what();
  }
  WireWriter w;
  write_blob_tag(w, "verbs-rc", 1);
  try {
    decode_peer_blob(w.bytes(), 4);
    FAIL() << "no exception";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 4: peer uses verbs-rc, this rank uses ucx"),
              std::string::npos)
        << e.what();
  }
}

TEST(UcxHostId, SharedMemoryIsAllowedUnlessTheListLeavesItOut) {
  EXPECT_TRUE(allows_shared_memory(""));
  EXPECT_TRUE(allows_shared_memory("all"));
  EXPECT_TRUE(allows_shared_memory("sm,self"));
  EXPECT_TRUE(allows_shared_memory("tcp,posix"));
  EXPECT_TRUE(allows_shared_memory("^ib"));
  EXPECT_FALSE(allows_shared_memory("tcp,self"));
  EXPECT_FALSE(allows_shared_memory("rc_verbs,self"));
}

TEST(UcxHostId, ThisProcessHasADomainOfItsKernelAndNamespaces) {
  const std::string d = shared_memory_domain();
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d, shared_memory_domain());
  EXPECT_EQ(std::count(d.begin(), d.end(), '/'), 4) << d;  // boot id / net / mnt / ipc / pid
}

}  // namespace
}  // namespace dlcnet::ucx
