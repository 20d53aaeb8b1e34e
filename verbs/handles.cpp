#include "verbs/handles.hpp"

#include <cerrno>
#include <cstdio>
#include <string>

namespace dlcnet::verbs {

const char* device_name_of(const ibv_context* ctx) noexcept {
  if (ctx == nullptr || ctx->device == nullptr) return "?";
  const char* name = ibv_get_device_name(ctx->device);
  return name != nullptr ? name : "?";
}

DeviceList::DeviceList() {
  errno = 0;
  list_ = ibv_get_device_list(&count_);
  // NULL means "no usable kernel support" (ENOSYS) as much as failure: both are "no devices".
  if (list_ == nullptr) count_ = 0;
}

DeviceList::~DeviceList() {
  if (list_ != nullptr) ibv_free_device_list(list_);
}

Context open_device(ibv_device* device) {
  errno = 0;
  ibv_context* ctx = ibv_open_device(device);
  if (ctx == nullptr) {
    throw_verbs_error(ibv_get_device_name(device), "ibv_open_device", last_errno());
  }
  return Context(ctx);
}

Pd alloc_pd(ibv_context* ctx) {
  errno = 0;
  ibv_pd* pd = ibv_alloc_pd(ctx);
  if (pd == nullptr) throw_verbs_error(device_name_of(ctx), "ibv_alloc_pd", last_errno());
  return Pd(pd);
}

Cq create_cq(ibv_context* ctx, int cqe) {
  errno = 0;
  ibv_cq* cq = ibv_create_cq(ctx, cqe, nullptr, nullptr, 0);
  if (cq == nullptr) {
    throw_verbs_error(device_name_of(ctx), "ibv_create_cq(cqe=" + std::to_string(cqe) + ")",
                      last_errno());
  }
  return Cq(cq);
}

Mr reg_mr(ibv_pd* pd, void* addr, size_t length, int access) {
  errno = 0;
  ibv_mr* mr = ibv_reg_mr(pd, addr, length, access);
  if (mr == nullptr) {
    char call[96];
    std::snprintf(call, sizeof call, "ibv_reg_mr(addr=%p, length=%zu)", addr, length);
    throw_reg_mr_error(device_name_of(pd->context), call, last_errno());
  }
  return Mr(mr);
}

}  // namespace dlcnet::verbs
