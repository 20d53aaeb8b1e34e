// The verbs Transport. Set-up (verbs_setup.cpp) is split from the datapath
// (verbs_datapath.cpp); this header holds what both share.
#pragma once

#include <infiniband/verbs.h>
#include <netinet/in.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/transport.hpp"
#include "verbs/async_events.hpp"
#include "verbs/cm_handles.hpp"
#include "verbs/credits.hpp"
#include "verbs/device_select.hpp"
#include "verbs/endpoint.hpp"
#include "verbs/handles.hpp"
#include "verbs/qp_setup.hpp"

namespace dlcnet::verbs {

// Our wr_id: bit 63 = receive, bits 62..48 = peer slot, bits 47..0 = sequence number. The
// caller's wr_id, op and length live in per-peer slot tables, so a completion names its peer
// and its request without a qp_num lookup, also for error completions (whose opcode and
// byte_len the verbs API leaves undefined).
inline constexpr unsigned kSeqBits = 48;
inline constexpr uint64_t kSeqMask = (uint64_t{1} << kSeqBits) - 1;
inline constexpr uint64_t kRecvFlag = uint64_t{1} << 63;
inline constexpr size_t kMaxPeers = size_t{1} << 15;
static_assert(kMaxPeers << kSeqBits == kRecvFlag,
              "peer slot bits sit between the flag and the sequence");

// ibv_poll_cq batch: amortises the CQ lock (rxe) and the doorbell-record read (mlx5).
inline constexpr int kPollBatch = 16;
// Async events are checked once per this many poll() calls: a failed non-blocking read costs
// a system call, too much for every empty poll of a latency loop.
inline constexpr uint64_t kAsyncCheckEvery = 1024;
static_assert((kAsyncCheckEvery & (kAsyncCheckEvery - 1)) == 0, "checked with a mask");

struct LocalRegion {
  uint64_t addr = 0;
  uint64_t length = 0;
  uint32_t lkey = 0;
};

struct SendSlot {
  uint64_t wr_id = 0;
  uint32_t length = 0;
  Op op = Op::send;
  bool report = false;  // the caller asked for a completion (else it was forced, see credits)
};

// One connected peer. Declared in creation order; work requests are built once in connect()
// and only the fields that change are written per post.
struct PeerConn {
  int rank = -1;
  CmId cm_id;  // rdma_cm path: owns the id and the QP on it
  Qp qp;       // out-of-band path
  ibv_qp* raw_qp = nullptr;
  uint32_t psn = 0;
  std::vector<RemoteRegion> remote;
  SqCredits sq;
  RqCredits rq;
  uint64_t id_base = 0;  // slot << kSeqBits
  uint64_t send_mask = 0;
  uint64_t recv_mask = 0;
  std::vector<SendSlot> send_slots;
  std::vector<uint64_t> recv_slots;
  ibv_sge send_sge{};
  ibv_send_wr send_wr{};
  ibv_sge recv_sge{};
  ibv_recv_wr recv_wr{};
  bool failed = false;  // a completion failed: the QP is in the error state
};

class VerbsTransport final : public Transport {
 public:
  explicit VerbsTransport(const TransportOptions& opts);

  const char* name() const noexcept override { return "verbs"; }
  nlohmann::json describe() const override;
  uint64_t max_message_size() const noexcept override { return max_msg_; }

  RegionId register_memory(void* addr, size_t length) override;
  void connect(Bootstrap& boot, std::span<const int> peers) override;

  Status post_send(int peer, RegionId region, size_t offset, size_t length, uint64_t wr_id,
                   bool signaled) noexcept override;
  Status post_recv(int peer, RegionId region, size_t offset, size_t length,
                   uint64_t wr_id) noexcept override;
  Status post_write(int peer, RegionId region, size_t offset, size_t length, size_t remote_offset,
                    uint64_t wr_id, bool signaled) noexcept override;
  Status post_read(int peer, RegionId region, size_t offset, size_t length, size_t remote_offset,
                   uint64_t wr_id, bool signaled) noexcept override;
  int poll(std::span<Completion> out) noexcept override;
  bool target_must_poll() const noexcept override { return false; }  // the NIC serves RDMA
  // One RC QP per peer executes its work requests in order.
  bool orders_write_before_send() const noexcept override { return true; }
  const std::string& last_error() const noexcept override { return last_error_; }

 private:
  // set-up
  void validate_peers(const Bootstrap& boot, std::span<const int> peers) const;
  void create_cq(size_t npeers);
  void init_peer(PeerConn& p, int rank, size_t slot);
  std::vector<Endpoint> exchange_endpoints(Bootstrap& boot);
  void connect_oob(const std::vector<Endpoint>& remote);
  void connect_cm(const std::vector<Endpoint>& remote, int my_rank);
  void create_cm_qp(rdma_cm_id* id);
  sockaddr_in local_ipv4() const;

  // datapath
  PeerConn* peer_or_fail(int peer) noexcept;
  Status post_sq(int peer, ibv_wr_opcode opcode, Op op, RegionId region, size_t offset,
                 size_t length, size_t remote_offset, uint64_t wr_id, bool signaled) noexcept;
  bool take(const ibv_wc& wc, Completion& out) noexcept;
  void on_failed_completion(PeerConn& p, const Completion& c, const ibv_wc& wc) noexcept;
  void check_async_events() noexcept;
  static bool async_is_ours(const AsyncFault& fault, const void* self) noexcept;
  [[gnu::format(printf, 2, 3)]] Status fail(const char* fmt, ...) noexcept;

  // Members in creation order, so destruction (QPs, CM ids, CQ, MRs, PD, context) unwinds
  // in reverse by itself.
  TransportOptions opts_;
  Context own_ctx_;             // out-of-band path; the rdma_cm path uses librdmacm's
  ibv_context* ctx_ = nullptr;  // the one in use
  std::string dev_;
  ibv_device_attr dev_attr_{};
  PortChoice port_;
  uint64_t max_msg_ = 0;
  Pd pd_;
  std::vector<Mr> mrs_;
  std::vector<LocalRegion> regions_;
  Cq cq_;
  int cq_entries_ = 0;
  CmEventChannel cm_channel_;
  CmId cm_listener_;
  std::vector<PeerConn> peers_;  // never resized after connect(): WRs point into it
  std::vector<int32_t> slot_of_rank_;
  uint32_t inline_granted_ = 0;
  QpSettings qp_settings_;
  bool connect_called_ = false;
  bool connected_ = false;
  bool fatal_ = false;  // a fatal async event: poll() fails once the CQ is drained
  uint64_t poll_calls_ = 0;
  std::string fault_;  // the first failure, kept while later ones (flushes) follow
  std::string last_error_;
};

}  // namespace dlcnet::verbs
