// UcxTransport's state, shared by its set-up (ucx_transport_setup.cpp, ucx_transport_connect.cpp)
// and datapath (ucx_transport_datapath.cpp) files. Internal to ucx/.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <ucp/api/ucp.h>
#include <nlohmann/json.hpp>

#include "core/transport.hpp"
#include "ucx/ucx_handles.hpp"
#include "ucx/ucx_lanes.hpp"
#include "ucx/ucx_op_slots.hpp"
#include "ucx/ucx_settings.hpp"
#include "ucx/ucx_worker_gate.hpp"

namespace dlcnet::ucx {

// Tag layout: kind in the top byte, sender rank in the low 32 bits; receives match the full
// tag, so a message is only ever taken by a receive posted for its sender and kind.
inline constexpr ucp_tag_t kTagFull = ~ucp_tag_t{0};
inline constexpr ucp_tag_t kDataKind = ucp_tag_t{0x01} << 56;
inline constexpr ucp_tag_t kHelloKind = ucp_tag_t{0x02} << 56;  // connect() rounds
inline constexpr ucp_tag_t kReadyKind = ucp_tag_t{0x03} << 56;
inline ucp_tag_t make_tag(ucp_tag_t kind, int sender) noexcept {
  return kind | static_cast<uint32_t>(sender);
}

// What this transport keeps in the space UCX reserves at the start of every request it returns
// (ucp_params_t::request_size): the slot of a send, put or get still in flight.
struct RequestSpace {
  OpSlot* slot;
};
inline constexpr size_t kRequestSpace = sizeof(RequestSpace);

struct LocalRegion {
  uint8_t* base = nullptr;
  size_t length = 0;
  MemHandle memh;
  Bytes packed_rkey;
};

struct RemoteRegion {
  uint64_t addr = 0;
  uint64_t length = 0;
  RemoteKey rkey;
};

struct Peer {
  // Creation order: the endpoints before the keys unpacked with `ep` (destroyed in reverse).
  Endpoint ep;         // everything this rank posts to the peer
  Endpoint ep_return;  // --ucx-connections direction: the peer's data comes in on its pair
  std::vector<RemoteRegion> regions;
  UcxTransport* owner = nullptr;  // for the endpoint error callback
  int rank = -1;
  bool connected = false;
  bool failed = false;
  ucs_status_t failure = UCS_OK;  // why the endpoint failed (on_peer_error)
  ucp_err_handling_mode_t err_mode = UCP_ERR_HANDLING_MODE_NONE;
  bool same_host = false;  // one kernel and namespaces (ucx_host_id.hpp): shared memory may serve
  uint32_t sends = 0;      // credits in use: send, write, read (limit send_depth)
  uint32_t recvs = 0;      // credits in use: recv (limit recv_depth)
  EndpointInfo info;
};

class UcxTransport final : public Transport {
 public:
  explicit UcxTransport(const TransportOptions& opts);
  ~UcxTransport() override;
  UcxTransport(const UcxTransport&) = delete;
  UcxTransport& operator=(const UcxTransport&) = delete;

  const char* name() const noexcept override { return "ucx"; }
  nlohmann::json describe() const override;
  uint64_t max_message_size() const noexcept override;

  RegionId register_memory(void* addr, size_t length) override;
  Allocation allocate_memory(size_t length) override;
  void connect(Bootstrap& boot, std::span<const int> peers) override;
  void disconnect(std::chrono::milliseconds limit) noexcept override;

  Status post_send(int peer, RegionId region, size_t offset, size_t length, uint64_t wr_id,
                   bool signaled) noexcept override;
  Status post_recv(int peer, RegionId region, size_t offset, size_t length,
                   uint64_t wr_id) noexcept override;
  Status post_write(int peer, RegionId region, size_t offset, size_t length, size_t remote_offset,
                    uint64_t wr_id, bool signaled) noexcept override;
  Status post_read(int peer, RegionId region, size_t offset, size_t length, size_t remote_offset,
                   uint64_t wr_id, bool signaled) noexcept override;
  int poll(std::span<Completion> out) noexcept override;
  // UCX does not order RMA against tag messages (they may take different lanes).
  bool orders_write_before_send() const noexcept override { return false; }
  bool can_wait_event() const noexcept override { return event_fd_ >= 0; }
  // False when every peer is reached over shared memory only (posix, sysv, cma, ...).
  bool kernel_carries_traffic() const noexcept override;
  void wait_event(int64_t max_ns) noexcept override;
  const std::string& last_error() const noexcept override { return last_error_; }

  // UCX callbacks (user_data / arg point at an OpSlot or a Peer; on_op_done finds its OpSlot
  // through the request's RequestSpace).
  static void on_op_done(void* request, ucs_status_t status, void* user_data) noexcept;
  static void on_send_done(void* request, ucs_status_t status, void* user_data) noexcept;
  static void on_recv_done(void* request, ucs_status_t status, const ucp_tag_recv_info_t* info,
                           void* user_data) noexcept;
  static void on_peer_error(void* arg, ucp_ep_h ep, ucs_status_t status) noexcept;

 private:
  void refuse_after_connect(const char* call) const;

  // connect() steps (ucx_transport_connect.cpp).
  void check_peer_list(std::span<const int> peers) const;
  Endpoint create_endpoint(Peer& p, const Bytes& address, bool same_host);
  void handshake(std::span<const int> peers);

  // Datapath helpers (ucx_transport_datapath.cpp). The checks every post makes are inline and
  // their error reports out of line (cold): 126 fewer instructions per ping-pong iteration
  // (callgrind), though no measurable change in latency.
  Peer* usable_peer(int peer, const char* call) noexcept {
    if (static_cast<size_t>(peer) < peers_.size()) {
      Peer& p = peers_[static_cast<size_t>(peer)];
      if (p.connected && !p.failed) [[likely]]
        return &p;
    }
    return unusable_peer(peer, call);
  }
  LocalRegion* local_range(RegionId region, size_t offset, size_t length,
                           const char* call) noexcept {
    if (region < regions_.size()) {
      LocalRegion& r = regions_[region];
      if (offset <= r.length && length <= r.length - offset) [[likely]]
        return &r;
    }
    return bad_local_range(region, offset, length, call);
  }
  RemoteRegion* remote_range(Peer& p, RegionId region, size_t offset, size_t length,
                             const char* call) noexcept {
    if (region < p.regions.size()) {
      RemoteRegion& r = p.regions[region];
      if (offset <= r.length && length <= r.length - offset) [[likely]]
        return &r;
    }
    return bad_remote_range(p, region, offset, length, call);
  }
  [[gnu::cold]] Peer* unusable_peer(int peer, const char* call) noexcept;
  [[gnu::cold]] LocalRegion* bad_local_range(RegionId region, size_t offset, size_t length,
                                             const char* call) noexcept;
  [[gnu::cold]] RemoteRegion* bad_remote_range(Peer& p, RegionId region, size_t offset,
                                               size_t length, const char* call) noexcept;
  OpSlot& start_op(Peer& p, Op op, uint64_t wr_id, uint64_t bytes, bool signaled) noexcept;
  Status after_post(Peer& p, OpSlot& s, ucs_status_ptr_t request, const char* call) noexcept;
  [[gnu::cold]] Status post_failed(Peer& p, OpSlot& s, ucs_status_t status,
                                   const char* call) noexcept;
  Status track(Peer& p, Op op, uint64_t wr_id, uint64_t bytes, bool signaled,
               ucs_status_ptr_t request, const char* call) noexcept;
  void finish(OpSlot& s, ucs_status_t status, uint64_t bytes) noexcept;
  void deliver(const Completion& c) noexcept;
  void release_credit(Peer& p, Op op) noexcept;
  [[gnu::cold]] void set_error(const char* call, int peer, const char* what) noexcept;
  void note_call() noexcept {  // in the caller's turn (gate_)
    calls_.store(calls_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void shutdown() noexcept;
  // Operations in flight, per peer rank (indexed like peers_): one pass over the slots.
  std::vector<uint32_t> ops_in_flight_per_peer() const;
  // Progresses until no operation is in flight (true) or `limit` passed (false).
  bool drain(std::chrono::milliseconds limit) noexcept;
  // Cancels receives, drains, drops remote keys and closes every endpoint, all within `limit`
  // (each drain within Endpoint::kCloseLimit too); the worker stays.
  void end_connections(std::chrono::milliseconds limit) noexcept;
  bool close_endpoints(std::chrono::milliseconds limit) noexcept;

  // Progress while the caller is away (ucx_transport_datapath.cpp): a rendezvous send, an RMA
  // over active messages or a reply UCX owes the peer only moves when this worker progresses.
  void start_idle_progress();
  void stop_idle_progress() noexcept;
  void idle_progress_loop() noexcept;

  // Members in creation order.
  TransportOptions opts_;
  Selection selection_;
  bool retry_count_set_ = false;
  Context context_;
  Worker worker_;
  std::vector<LocalRegion> regions_;
  std::vector<Peer> peers_;  // indexed by rank; sized once in connect() (callbacks point in)
  OpSlots slots_;
  CompletionRing ring_;
  Completion* harvest_ = nullptr;   // inside poll(): where the next completion goes
  size_t harvest_left_ = 0;         // room left there (0 outside poll())
  std::vector<uint64_t> hello_in_;  // handshake buffers (see handshake())
  uint64_t hello_out_ = 0;
  std::string last_error_;   // written by the caller's thread only
  std::string fatal_error_;  // an endpoint failure, copied to last_error_ by poll()
  int rank_ = -1;
  int event_fd_ = -1;  // the worker's (TransportOptions::wakeup), owned by the worker
  bool connected_ = false;
  bool fatal_ = false;

  // Serializes every use of the worker once connect() returned: the caller's datapath calls
  // and the idle-progress thread (the worker is created UCS_THREAD_MODE_SERIALIZED). UCX
  // callbacks only run inside such calls, so slots_, ring_ and the peers' credits are guarded
  // by it too. See ucx_worker_gate.hpp.
  WorkerGate gate_;
  std::atomic<uint64_t> calls_{0};  // datapath calls so far: the idle thread's "caller is here"
  std::mutex idle_mu_;
  std::condition_variable idle_cv_;
  bool idle_stop_ = false;
  std::thread idle_thread_;
};

}  // namespace dlcnet::ucx
