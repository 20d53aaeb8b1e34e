// UcxTransport: context and worker creation, memory registration, description, shutdown.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/memlock.hpp"
#include "core/rank_list.hpp"
#include "ucx/ucx_error.hpp"
#include "ucx/ucx_host_id.hpp"
#include "ucx/ucx_request_wait.hpp"
#include "ucx/ucx_transport.hpp"
#include "ucx/ucx_transport_impl.hpp"

namespace dlcnet {

std::unique_ptr<Transport> make_ucx_transport(const TransportOptions& opts) {
  return std::make_unique<ucx::UcxTransport>(opts);
}

namespace ucx {
namespace {

std::string settings_text(const Selection& s) {
  return "UCX_TLS=" + s.tls + ", UCX_NET_DEVICES=" + s.net_devices;
}

const char* mode_name(ucp_err_handling_mode_t m) {
  return m == UCP_ERR_HANDLING_MODE_PEER ? "peer" : "none";
}

}  // namespace

UcxTransport::UcxTransport(const TransportOptions& opts) : opts_(opts) {
  if (opts_.send_depth == 0 || opts_.recv_depth == 0)
    throw Error("ucx: send_depth and recv_depth must be at least 1");
  if (const std::vector<std::string> bad = unknown_net_devices(opts_.device); !bad.empty()) {
    std::string list;
    for (const std::string& d : bad) list += (list.empty() ? "" : ", ") + d;
    throw Error("ucx: device " + list + " (--ib-dev, UCX_NET_DEVICES) is neither a network " +
                "interface here nor an RDMA device: name one of `ip link` or " +
                "/sys/class/infiniband (UCX would only warn and run on another)");
  }
  Config config = read_config();
  apply_options(config.get(), opts_);
  selection_ = effective_selection(config.get());
  retry_count_set_ = apply_finite_rc_retry(config.get(), selection_);
  if (std::string w = memlock_warning(selection_, memlock_pinnable_bytes()); !w.empty())
    std::fprintf(stderr, "dlcnet: warning: %s\n", w.c_str());

  ucp_params_t p{};
  p.field_mask =
      UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED | UCP_PARAM_FIELD_REQUEST_SIZE;
  p.features = UCP_FEATURE_TAG | UCP_FEATURE_RMA | (opts_.wakeup ? UCP_FEATURE_WAKEUP : 0);
  p.mt_workers_shared = 0;         // one worker per context
  p.request_size = kRequestSpace;  // RequestSpace
  context_ = init_context(p, config, settings_text(selection_));

  // Serialized: the caller's thread and the idle-progress thread take turns (gate_).
  ucp_worker_params_t wp{};
  wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  wp.thread_mode = UCS_THREAD_MODE_SERIALIZED;
  worker_ = create_worker(context_.get(), wp);
  if (opts_.wakeup) {
    // The worker's event descriptor: readable once armed (wait_event()) and traffic arrives.
    check(ucp_worker_get_efd(worker_.get(), &event_fd_), "ucp_worker_get_efd", "wakeup");
  }
}

UcxTransport::~UcxTransport() {
  shutdown();
}

// Every operation in flight ends before the worker goes: UCX 1.13.1 aborts the process when it
// destroys an endpoint that still carries a request of the peer error mode (ucp_ep_destroy_base
// asserts that none is left), which happens to a rendezvous send whose peer quit without posting
// the receive. A graceful close does not end such a send; a forced one does, once progress has
// run UCX's purge.
void UcxTransport::shutdown() noexcept {
  stop_idle_progress();  // from here on only this thread touches the worker
  if (!worker_) return;
  // Nothing left to do after disconnect(); bounded by the run's close limit (a failing rank
  // closes to a stopped peer within its --timeout).
  end_connections(std::chrono::milliseconds(std::max(opts_.close_limit_ms, 1)));
  // The worker goes before slots_ and ring_: nothing may call back into them afterwards.
  peers_.clear();
  regions_.clear();
  worker_.reset();
  context_.reset();
}

// The job's end while every peer still runs: the idle-progress thread stays to answer the
// peers' closes while this rank waits in the bootstrap's last barrier.
void UcxTransport::disconnect(std::chrono::milliseconds limit) noexcept {
  if (!worker_ || !connected_) return;
  CallerTurn turn(gate_);
  note_call();
  end_connections(limit);
}

void UcxTransport::end_connections(std::chrono::milliseconds limit) noexcept {
  const auto end = std::chrono::steady_clock::now() + limit;
  const auto left = [&] {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    return std::clamp(ms, std::chrono::milliseconds(0), Endpoint::kCloseLimit);
  };
  // Receives nobody will match any more: cancel them so the worker holds no user requests.
  for (OpSlot& s : slots_.all())
    if (s.in_use && s.request != nullptr && s.op == Op::recv)
      ucp_request_cancel(worker_.get(), s.request);
  // Operations still moving (a peer finishing its receives) end within the limit; what is left
  // after it waits for a peer that is gone or quitting, and its endpoint is forced closed. Half
  // the limit at most: the closes and the forced closes' purge need the rest.
  drain(std::min(left(), limit / 2));
  // Remote keys before the endpoints that unpacked them; no datapath call from here on.
  for (Peer& p : peers_) {
    p.regions.clear();
    p.connected = false;
  }
  const auto close_limit = std::max(
      std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now()),
      std::chrono::milliseconds(0));
  if (close_endpoints(close_limit)) drain(left());  // the forced closes' purge
  if (size_t n = slots_.in_use())
    std::fprintf(stderr,
                 "dlcnet: ucx: %zu operation(s) abandoned in flight at shutdown: their peer never "
                 "finished them, and UCX could not end them within %lld ms (it cannot at all on an "
                 "endpoint without error mode \"peer\")\n",
                 n, static_cast<long long>(limit.count()));
}

std::vector<uint32_t> UcxTransport::ops_in_flight_per_peer() const {
  std::vector<uint32_t> n(peers_.size(), 0);
  for (const OpSlot& s : slots_.all())
    if (s.in_use) ++n[static_cast<size_t>(s.peer)];
  return n;
}

bool UcxTransport::drain(std::chrono::milliseconds limit) noexcept {
  auto deadline = std::chrono::steady_clock::now() + limit;
  do ucp_worker_progress(worker_.get());
  while (slots_.in_use() > 0 && std::chrono::steady_clock::now() < deadline);
  return slots_.in_use() == 0;
}

// Closes every endpoint at once, so peers tearing down together wait for each other once:
// forced when the peer failed or operations to it are still in flight (error mode "peer" only;
// without it UCX keeps no request on the endpoint), gracefully otherwise. Closes still under
// way after `limit` are named in one line. Returns whether it forced one.
bool UcxTransport::close_endpoints(std::chrono::milliseconds limit) noexcept {
  ucp_worker_h w = worker_.get();
  const std::vector<uint32_t> in_flight = ops_in_flight_per_peer();
  std::vector<std::pair<int, ucs_status_ptr_t>> closing;
  bool forced = false;
  for (Peer& p : peers_) {
    if (p.rank < 0) continue;  // not one of this rank's peers: no endpoint
    bool force = p.err_mode == UCP_ERR_HANDLING_MODE_PEER &&
                 (p.failed || in_flight[static_cast<size_t>(p.rank)] > 0);
    forced = forced || force;
    ucs_status_ptr_t r = p.ep.start_close(force ? UCP_EP_CLOSE_FLAG_FORCE : 0);
    if (r != nullptr && !UCS_PTR_IS_ERR(r)) closing.emplace_back(p.rank, r);
    if (p.ep_return) {
      r = p.ep_return.start_close(force ? UCP_EP_CLOSE_FLAG_FORCE : 0);
      if (r != nullptr && !UCS_PTR_IS_ERR(r)) closing.emplace_back(p.rank, r);
    }
  }
  auto deadline = std::chrono::steady_clock::now() + limit;
  int64_t last_event = now_ns();
  std::vector<int> late;
  for (auto [rank, r] : closing) {
    if (wait_request(w, r, deadline, last_event) == UCS_INPROGRESS) late.push_back(rank);
    ucp_request_free(r);
  }
  if (!late.empty())
    std::fprintf(stderr,
                 "dlcnet: ucx: closing the endpoints to %zu rank(s) timed out after %lld ms: %s\n",
                 late.size(), static_cast<long long>(limit.count()), rank_list(late).c_str());
  return forced;
}

RegionId UcxTransport::register_memory(void* addr, size_t length) {
  refuse_after_connect("register_memory");
  if (addr == nullptr || length == 0)
    throw Error("ucx: register_memory(address=" + hex(addr) + ", length=" + std::to_string(length) +
                "): empty region");
  LocalRegion r;
  r.base = static_cast<uint8_t*>(addr);
  r.length = length;
  r.memh = map_memory(context_.get(), addr, length);
  r.packed_rkey = pack_rkey(context_.get(), r.memh.get());
  regions_.push_back(std::move(r));
  return static_cast<RegionId>(regions_.size() - 1);
}

Allocation UcxTransport::allocate_memory(size_t length) {
  refuse_after_connect("allocate_memory");
  if (length == 0) throw Error("ucx: allocate_memory(length=0): empty region");
  LocalRegion r;
  r.memh = map_memory(context_.get(), nullptr, length);
  r.base = static_cast<uint8_t*>(mapped_address(r.memh.get()));
  r.length = length;
  std::memset(r.base, 0, length);
  r.packed_rkey = pack_rkey(context_.get(), r.memh.get());
  regions_.push_back(std::move(r));
  return {regions_.back().base, static_cast<RegionId>(regions_.size() - 1)};
}

void UcxTransport::refuse_after_connect(const char* call) const {
  if (connected_)
    throw Error(std::string("ucx: ") + call +
                "() after connect(): register every region first, remote keys are exchanged in "
                "connect()");
}

bool UcxTransport::kernel_carries_traffic() const noexcept {
  for (const Peer& p : peers_) {
    if (!p.connected) continue;
    for (const Lane& l : p.info.lanes)  // shared memory as connect() names it, or self
      if (l.transport != "self" && (l.transport == "all" || !allows_shared_memory(l.transport)))
        return true;
  }
  return !connected_;
}

uint64_t UcxTransport::max_message_size() const noexcept {
  return std::numeric_limits<size_t>::max();
}

nlohmann::json UcxTransport::describe() const {
  nlohmann::json endpoints = nlohmann::json::array();
  for (const Peer& p : peers_) {
    if (!p.connected) continue;
    nlohmann::json e = to_json(p.info);
    e["peer"] = p.rank;
    e["error_handling"] = mode_name(p.err_mode);
    e["same_host"] = p.same_host;
    endpoints.push_back(std::move(e));
  }
  return {
      {"transport", "ucx"},
      {"ucx_version", ucp_get_version_string()},
      {"requested", {{"UCX_TLS", opts_.ucx_tls}, {"UCX_NET_DEVICES", opts_.device}}},
      {"effective", {{"UCX_TLS", selection_.tls}, {"UCX_NET_DEVICES", selection_.net_devices}}},
      {"rc_retry_count", retry_count_set_ ? kFiniteRcRetryCount : "UCX default or environment"},
      {"write_completion", "remote (put + endpoint flush) when signaled"},
      {"connections", opts_.ucx_connection_per_direction ? "direction" : "peer"},
      {"max_message_size", max_message_size()},
      {"rank", rank_},
      {"endpoints", endpoints},
  };
}

}  // namespace ucx
}  // namespace dlcnet
