#include "ucx/ucx_handles.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "core/error.hpp"
#include "ucx/ucx_error.hpp"

namespace dlcnet::ucx {

Config read_config() {
  ucp_config_t* c = nullptr;
  check(ucp_config_read(nullptr, nullptr, &c), "ucp_config_read", "env_prefix=UCX_");
  return Config(c);
}

Context init_context(const ucp_params_t& params, const Config& config, const std::string& what) {
  ucp_context_h c = nullptr;
  check(ucp_init(&params, config.get(), &c), "ucp_init", "features=TAG|RMA, " + what);
  return Context(c);
}

Worker create_worker(ucp_context_h context, const ucp_worker_params_t& params) {
  ucp_worker_h w = nullptr;
  check(ucp_worker_create(context, &params, &w), "ucp_worker_create", "thread_mode=serialized");
  return Worker(w);
}

MemHandle map_memory(ucp_context_h context, void* addr, size_t length) {
  ucp_mem_map_params_t p{};
  p.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                 UCP_MEM_MAP_PARAM_FIELD_FLAGS;
  p.address = addr;
  p.length = length;
  p.flags = addr == nullptr ? UCP_MEM_MAP_ALLOCATE : 0;
  ucp_mem_h m = nullptr;
  check(ucp_mem_map(context, &p, &m), "ucp_mem_map",
        (addr == nullptr ? std::string("ALLOCATE") : "address=" + hex(addr)) +
            ", length=" + std::to_string(length));
  return MemHandle(m, MemDeleter{context});
}

void* mapped_address(ucp_mem_h memh) {
  ucp_mem_attr_t a{};
  a.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS;
  check(ucp_mem_query(memh, &a), "ucp_mem_query", "address");
  return a.address;
}

Bytes worker_address(ucp_worker_h worker) {
  ucp_address_t* a = nullptr;
  size_t n = 0;
  check(ucp_worker_get_address(worker, &a, &n), "ucp_worker_get_address");
  auto* p = reinterpret_cast<const uint8_t*>(a);
  Bytes out(p, p + n);
  ucp_worker_release_address(worker, a);
  return out;
}

Bytes pack_rkey(ucp_context_h context, ucp_mem_h memh) {
  void* buf = nullptr;
  size_t n = 0;
  check(ucp_rkey_pack(context, memh, &buf, &n), "ucp_rkey_pack");
  auto* p = static_cast<const uint8_t*>(buf);
  Bytes out(p, p + n);
  ucp_rkey_buffer_release(buf);
  return out;
}

RemoteKey unpack_rkey(ucp_ep_h ep, const Bytes& packed, int peer) {
  ucp_rkey_h k = nullptr;
  check(ucp_ep_rkey_unpack(ep, packed.data(), &k), "ucp_ep_rkey_unpack",
        "rank " + std::to_string(peer) + ", " + std::to_string(packed.size()) + " bytes");
  return RemoteKey(k);
}

Endpoint& Endpoint::operator=(Endpoint&& o) noexcept {
  if (this != &o) {
    close(0, kCloseLimit);
    worker_ = o.worker_;
    ep_ = std::exchange(o.ep_, nullptr);
  }
  return *this;
}

ucs_status_ptr_t Endpoint::start_close(uint32_t flags) noexcept {
  if (ep_ == nullptr) return nullptr;
  ucp_request_param_t p{};
  p.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  p.flags = flags;
  return ucp_ep_close_nbx(std::exchange(ep_, nullptr), &p);
}

void Endpoint::close(uint32_t flags, std::chrono::milliseconds limit) noexcept {
  if (ep_ == nullptr) return;
  ucs_status_t s = wait_request(worker_, start_close(flags), limit);
  if (s == UCS_ERR_TIMED_OUT) std::fprintf(stderr, "dlcnet: ucx: ucp_ep_close_nbx timed out\n");
}

std::string capture_output(const std::function<void(FILE*)>& print) {
  char* buf = nullptr;
  size_t n = 0;
  FILE* f = open_memstream(&buf, &n);
  if (f == nullptr) throw_errno("open_memstream");
  print(f);
  std::fclose(f);  // flushes into buf/n
  std::string out(buf, n);
  std::free(buf);
  return out;
}

ucs_status_t wait_request(ucp_worker_h worker, ucs_status_ptr_t request,
                          std::chrono::milliseconds limit) noexcept {
  if (request == nullptr) return UCS_OK;
  if (UCS_PTR_IS_ERR(request)) return UCS_PTR_STATUS(request);
  auto deadline = std::chrono::steady_clock::now() + limit;
  ucs_status_t s;
  while ((s = ucp_request_check_status(request)) == UCS_INPROGRESS) {
    if (ucp_worker_progress(worker) == 0 && std::chrono::steady_clock::now() > deadline) {
      s = UCS_ERR_TIMED_OUT;
      break;
    }
  }
  ucp_request_free(request);
  return s;
}

}  // namespace dlcnet::ucx
