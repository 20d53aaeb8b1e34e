// Move-only owners of libibverbs objects. Destroying one logs a failure to stderr and never
// throws; aggregates declare them in creation order (context, PD, MR, CQ, QP) so destruction
// unwinds in reverse without any code.
#pragma once

#include <infiniband/verbs.h>

#include <array>
#include <cstring>
#include <utility>

#include "verbs/verbs_error.hpp"

namespace dlcnet::verbs {

// ibv_get_device_name() of the context's device ("?" for none); never fails.
const char* device_name_of(const ibv_context* ctx) noexcept;

inline ibv_context* context_of(ibv_context* ctx) noexcept {
  return ctx;
}
template <typename T>
ibv_context* context_of(T* object) noexcept {
  return object->context;
}

template <typename T, int (*Destroy)(T*), const char* Call>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T* p) noexcept : p_(p) {}
  Handle(Handle&& other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      p_ = std::exchange(other.p_, nullptr);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  T* get() const noexcept { return p_; }
  T* operator->() const noexcept { return p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }

  void reset() noexcept {
    if (p_ == nullptr) return;
    // The device name lives in the ibv_device, which may go away with the last context:
    // copy it before destroying.
    std::array<char, 64> device{};
    std::strncpy(device.data(), device_name_of(context_of(p_)), device.size() - 1);
    if (int rc = Destroy(std::exchange(p_, nullptr)); rc != 0) {
      log_verbs_failure(device.data(), Call, returned_errno(rc));
    }
  }

 private:
  T* p_ = nullptr;
};

inline constexpr char kCloseDevice[] = "ibv_close_device";
inline constexpr char kDeallocPd[] = "ibv_dealloc_pd";
inline constexpr char kDeregMr[] = "ibv_dereg_mr";
inline constexpr char kDestroyCq[] = "ibv_destroy_cq";
inline constexpr char kDestroyQp[] = "ibv_destroy_qp";

using Context = Handle<ibv_context, ibv_close_device, kCloseDevice>;
using Pd = Handle<ibv_pd, ibv_dealloc_pd, kDeallocPd>;
using Mr = Handle<ibv_mr, ibv_dereg_mr, kDeregMr>;
using Cq = Handle<ibv_cq, ibv_destroy_cq, kDestroyCq>;
using Qp = Handle<ibv_qp, ibv_destroy_qp, kDestroyQp>;

// The array ibv_get_device_list() returns; empty (not an error) when there are no devices.
class DeviceList {
 public:
  DeviceList();
  DeviceList(DeviceList&& other) noexcept
      : list_(std::exchange(other.list_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceList& operator=(DeviceList&&) = delete;
  DeviceList(const DeviceList&) = delete;
  DeviceList& operator=(const DeviceList&) = delete;
  ~DeviceList();

  int size() const noexcept { return count_; }
  ibv_device* operator[](int i) const noexcept { return list_[i]; }

 private:
  ibv_device** list_ = nullptr;
  int count_ = 0;
};

// Allocation helpers at the error boundary: each throws Error naming device, call, argument.
Context open_device(ibv_device* device);
Pd alloc_pd(ibv_context* ctx);
Cq create_cq(ibv_context* ctx, int cqe);
Mr reg_mr(ibv_pd* pd, void* addr, size_t length, int access);

}  // namespace dlcnet::verbs
