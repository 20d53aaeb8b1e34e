// Move-only owners of UCP objects. An aggregate that declares them in creation order
// (config, context, worker, memory, endpoints, remote keys) unwinds in reverse by itself.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <ucp/api/ucp.h>

#include "core/bytes.hpp"

namespace dlcnet::ucx {

struct ConfigDeleter {
  void operator()(ucp_config_t* c) const noexcept { ucp_config_release(c); }
};
using Config = std::unique_ptr<ucp_config_t, ConfigDeleter>;

struct ContextDeleter {
  void operator()(ucp_context_h c) const noexcept { ucp_cleanup(c); }
};
using Context = std::unique_ptr<std::remove_pointer_t<ucp_context_h>, ContextDeleter>;

struct WorkerDeleter {
  void operator()(ucp_worker_h w) const noexcept { ucp_worker_destroy(w); }
};
using Worker = std::unique_ptr<std::remove_pointer_t<ucp_worker_h>, WorkerDeleter>;

// Unmapping needs the context the memory was mapped with.
struct MemDeleter {
  ucp_context_h context = nullptr;
  void operator()(ucp_mem_h m) const noexcept { ucp_mem_unmap(context, m); }
};
using MemHandle = std::unique_ptr<std::remove_pointer_t<ucp_mem_h>, MemDeleter>;

struct RkeyDeleter {
  void operator()(ucp_rkey_h k) const noexcept { ucp_rkey_destroy(k); }
};
using RemoteKey = std::unique_ptr<std::remove_pointer_t<ucp_rkey_h>, RkeyDeleter>;

// ucp_config_read(NULL, NULL): the environment's UCX_* variables and UCX's config files.
Config read_config();
// `what` names the settings in the error message (e.g. "UCX_TLS=tcp, UCX_NET_DEVICES=all").
Context init_context(const ucp_params_t& params, const Config& config, const std::string& what);
Worker create_worker(ucp_context_h context, const ucp_worker_params_t& params);
// addr == nullptr: UCX allocates the memory itself (UCP_MEM_MAP_ALLOCATE; freed with the
// handle), and mapped_address() says where.
MemHandle map_memory(ucp_context_h context, void* addr, size_t length);
void* mapped_address(ucp_mem_h memh);
// Copies of UCX-owned buffers, released before returning.
Bytes worker_address(ucp_worker_h worker);
Bytes pack_rkey(ucp_context_h context, ucp_mem_h memh);
RemoteKey unpack_rkey(ucp_ep_h ep, const Bytes& packed, int peer);

// An endpoint whose close is bounded in time: the flush a graceful close performs waits for
// the peer, and a peer that is gone must not hang the destructor.
class Endpoint {
 public:
  static constexpr std::chrono::milliseconds kCloseLimit{1000};

  Endpoint() = default;
  Endpoint(ucp_worker_h worker, ucp_ep_h ep) : worker_(worker), ep_(ep) {}
  Endpoint(Endpoint&& o) noexcept : worker_(o.worker_), ep_(std::exchange(o.ep_, nullptr)) {}
  Endpoint& operator=(Endpoint&& o) noexcept;
  // Graceful: a forced close is only defined when both sides use error mode "peer".
  ~Endpoint() { close(0, kCloseLimit); }

  ucp_ep_h get() const noexcept { return ep_; }
  explicit operator bool() const noexcept { return ep_ != nullptr; }

  // Starts closing (flags 0 = flush first, UCP_EP_CLOSE_FLAG_FORCE = drop) and gives up
  // ownership; returns the request to wait for, or nullptr when the close completed.
  ucs_status_ptr_t start_close(uint32_t flags) noexcept;
  // start_close() plus progress until done or `limit` passed; logs a close that timed out.
  void close(uint32_t flags, std::chrono::milliseconds limit) noexcept;

 private:
  ucp_worker_h worker_ = nullptr;
  ucp_ep_h ep_ = nullptr;
};

// Runs `print` on a memory stream and returns what it wrote: UCX reports some facts (the
// effective configuration, an endpoint's lanes) only by printing them to a FILE*.
std::string capture_output(const std::function<void(FILE*)>& print);

// Progresses `worker` until `request` (a status pointer from a *_nbx call made without a
// callback) completes or `limit` passes. Returns the request's status, UCS_ERR_TIMED_OUT on
// timeout (the request is then left to finish on its own and released).
ucs_status_t wait_request(ucp_worker_h worker, ucs_status_ptr_t request,
                          std::chrono::milliseconds limit) noexcept;

}  // namespace dlcnet::ucx
