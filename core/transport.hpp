// The one interface every benchmark, pattern and the replay engine drive traffic through.
// Implementations: verbs/ (RC QPs over libibverbs, optionally rdma_cm) and ucx/ (UCP).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dlcnet {

class Bootstrap;

enum class Op : uint8_t { send, recv, write, read };
const char* to_string(Op op) noexcept;

// Datapath result. `busy`: the peer's queue is full (more than TransportOptions::send_depth
// outstanding): poll() and try again. `failed`: see Transport::last_error().
enum class Status : uint8_t { ok, busy, failed };

struct Completion {
  uint64_t wr_id = 0;
  int peer = -1;
  Op op = Op::send;
  bool ok = true;
  uint64_t bytes = 0;           // bytes moved; for recv, the length that arrived
  const char* error = nullptr;  // static text when !ok (ibv_wc_status_str, ucs_status_string)
};

// Index of a registered memory region. Registration is symmetric: every rank registers its
// regions in the same order and before connect(), so region i here pairs with region i at
// every peer for write and read (remote keys travel in connect()).
using RegionId = uint32_t;

// Memory a transport allocated and registered (allocate_memory()).
struct Allocation {
  uint8_t* data = nullptr;
  RegionId region = 0;
};

struct TransportOptions {
  std::string device;    // -d: RDMA device ("" = first active); for UCX: UCX_NET_DEVICES
  int ib_port = 0;       // -i: port number (0 = first active)
  int gid_index = -1;    // -x: GID index (-1 = RoCE v2 GID of an IPv4 address)
  bool rdma_cm = false;  // --rdma-cm: connect RC QPs through librdmacm
  std::string ucx_tls;   // --ucx-tls: UCX_TLS for this context ("" = UCX's default)
  // --ucx-connections direction: two endpoints per peer, so a connection-oriented lane (tcp)
  // gives each direction its own connection, as NCCL's send and receive connections: this
  // rank's data and the ACKs of the peer's data then travel on different connections (UCX's
  // own: one connection per pair of ranks carries both). Verbs ignores it.
  bool ucx_connection_per_direction = false;
  uint32_t send_depth = 128;   // -t: outstanding send/write/read per peer
  uint32_t recv_depth = 512;   // posted receives per peer
  uint32_t inline_size = 220;  // sends up to this size go inline where supported
  // The QP attributes perftest sets (verbs only: the UCX transport refuses them, see
  // launch/transport_select.hpp). 0 / -1 / false: the device's choice.
  bool inline_given = false;  // -I: inline_size was asked for (UCX picks its own)
  uint32_t path_mtu = 0;      // -m: bytes, 256..4096, at most the port's active MTU
  int traffic_class = -1;     // -T: the GRH traffic class (RoCE: DSCP << 2 | ECN), 0..255
  int service_level = -1;     // -S: the service level (RoCE: maps to a priority), 0..15
  int connect_timeout_ms = 30000;
  // Closing the connections when the transport goes (UCX: draining what is in flight, then the
  // endpoints' closes) ends within this long, so a stopped peer cannot hold a failing rank past
  // its --timeout (core/stop_budget.hpp).
  int close_limit_ms = 1000;
  // Ask for the means to block until traffic arrives (wait_event()); UCX: UCP_FEATURE_WAKEUP,
  // which may narrow the lanes UCX picks to those that can signal events.
  bool wakeup = false;
};

class Transport {
 public:
  virtual ~Transport() = default;

  virtual const char* name() const noexcept = 0;  // "verbs" or "ucx"
  // What carries the traffic, for the JSON context: device, link layer, MTU, GID index, port
  // for verbs; transport and device per lane for UCX.
  virtual nlohmann::json describe() const = 0;
  virtual uint64_t max_message_size() const noexcept = 0;

  // ---- set-up: throws Error with device, call, argument and errno/status text ----
  virtual RegionId register_memory(void* addr, size_t length) = 0;
  // Allocates `length` zeroed, page-aligned bytes and registers them (the same rules as
  // register_memory()); they live as long as the transport. UCX allocates them itself, in
  // memory a peer on the same host can map, so a put over shared memory is a copy instead of a
  // system call (as ucx_perftest's buffers); the default takes them from the heap.
  virtual Allocation allocate_memory(size_t length);
  // Connects this rank to each rank in `peers` (all ranks call it collectively, each with its
  // own peer list; lists must be symmetric). Exchanges addresses and remote keys through `boot`.
  virtual void connect(Bootstrap& boot, std::span<const int> peers) = 0;
  // Ends every connection while the peers are still running (Job::verdict calls it between two
  // bootstrap collectives, so no peer has left yet), waiting up to `limit` for the peers'
  // part; no datapath call may follow. For a transport whose endpoints need the peer to close
  // (UCX's flush) this is where they close, instead of at destruction against peers that may
  // already be gone. The default does nothing (destruction ends the connections).
  virtual void disconnect(std::chrono::milliseconds limit) noexcept { (void)limit; }

  // ---- datapath: never throws; one calling thread at a time (a transport may progress on a
  // thread of its own, see ucx/ucx_worker_gate.hpp, but it is not for concurrent callers) ----
  // Unsignaled operations produce no Completion; the caller signals at least one in every
  // send_depth/2 consecutive operations to a peer (and the last one of a burst).
  virtual Status post_send(int peer, RegionId region, size_t offset, size_t length, uint64_t wr_id,
                           bool signaled) noexcept = 0;
  virtual Status post_recv(int peer, RegionId region, size_t offset, size_t length,
                           uint64_t wr_id) noexcept = 0;
  // Writes local [offset, offset+length) of `region` to the peer's same region at remote_offset.
  virtual Status post_write(int peer, RegionId region, size_t offset, size_t length,
                            size_t remote_offset, uint64_t wr_id, bool signaled) noexcept = 0;
  // Reads the peer's same region at remote_offset into local [offset, offset+length).
  virtual Status post_read(int peer, RegionId region, size_t offset, size_t length,
                           size_t remote_offset, uint64_t wr_id, bool signaled) noexcept = 0;

  // Drives progress and harvests completions into `out`. Returns how many were written, or -1
  // on a fatal transport error (see last_error()). Also the progress call to make while
  // waiting for memory to change (RMA over UCX's TCP or shared-memory lanes needs it).
  virtual int poll(std::span<Completion> out) noexcept = 0;
  // Whether the target of one-sided operations must keep calling poll() for them to move (UCX
  // emulates RMA over active messages on tcp and shared memory). Where it need not (verbs: the
  // NIC serves them), a passive side may sleep between polls and leave the CPU to the data path.
  virtual bool target_must_poll() const noexcept { return true; }
  // Whether a send posted after a write to the same peer is delivered only once the write's
  // data is in place at the peer, so "write, then notify with a send" needs no wait between
  // the two. RC verbs promises it (one QP executes its work requests in order: the send's
  // receive completes after the RDMA write's data is placed). UCX does not (a put and a tagged
  // message may travel on different lanes), so the replay waits for the write's completion
  // (see ucx/ucx_transport.hpp) before it notifies. The default promises nothing.
  virtual bool orders_write_before_send() const noexcept { return false; }

  // Whether moving the data takes kernel CPU time besides the ranks' own: Soft-RoCE's protocol
  // work in kernel threads, TCP's in softirqs. Where it does, ranks that spin on every CPU
  // starve it (Job::idle_for()). Only valid after connect(); conservative by default.
  virtual bool kernel_carries_traffic() const noexcept { return true; }

  // Whether wait_event() can block until traffic arrives (needs TransportOptions::wakeup).
  virtual bool can_wait_event() const noexcept { return false; }
  // Blocks until poll() may have something to harvest, or `max_ns` passed, consuming nothing;
  // returns at once where can_wait_event() is false. For a caller that shares its CPU with
  // others and has nothing due: it leaves the CPU and still sees an arrival without a
  // polling delay.
  virtual void wait_event(int64_t max_ns) noexcept { (void)max_ns; }

  virtual const std::string& last_error() const noexcept = 0;

 private:
  struct FreeDeleter {
    void operator()(uint8_t* p) const noexcept;
  };
  // allocate_memory()'s default: freed after the derived transport deregistered it.
  std::vector<std::unique_ptr<uint8_t, FreeDeleter>> allocations_;
};

}  // namespace dlcnet
