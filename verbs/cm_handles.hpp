// Move-only owners of librdmacm objects, same rules as handles.hpp: destructors log and never
// throw. An event channel must outlive every id created on it, so declare it first.
#pragma once

#include <rdma/rdma_cma.h>

#include <utility>

namespace dlcnet::verbs {

class CmEventChannel {
 public:
  CmEventChannel() = default;
  explicit CmEventChannel(rdma_event_channel* ch) noexcept : ch_(ch) {}
  CmEventChannel(CmEventChannel&& other) noexcept : ch_(std::exchange(other.ch_, nullptr)) {}
  CmEventChannel& operator=(CmEventChannel&& other) noexcept;
  CmEventChannel(const CmEventChannel&) = delete;
  CmEventChannel& operator=(const CmEventChannel&) = delete;
  ~CmEventChannel() { reset(); }

  rdma_event_channel* get() const noexcept { return ch_; }
  explicit operator bool() const noexcept { return ch_ != nullptr; }
  void reset() noexcept;

 private:
  rdma_event_channel* ch_ = nullptr;
};

// Owns an rdma_cm_id and the QP rdma_create_qp() put on it (destroyed first).
// rdma_destroy_id() waits until every event reported for the id has been acknowledged, so
// every event must be acked before its id is destroyed (cm_connect.cpp does so with a guard).
class CmId {
 public:
  CmId() = default;
  explicit CmId(rdma_cm_id* id) noexcept : id_(id) {}
  CmId(CmId&& other) noexcept : id_(std::exchange(other.id_, nullptr)) {}
  CmId& operator=(CmId&& other) noexcept;
  CmId(const CmId&) = delete;
  CmId& operator=(const CmId&) = delete;
  ~CmId() { reset(); }

  rdma_cm_id* get() const noexcept { return id_; }
  rdma_cm_id* operator->() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != nullptr; }
  void reset() noexcept;

 private:
  rdma_cm_id* id_ = nullptr;
};

// Throws Error naming `device` and the call.
CmEventChannel create_nonblocking_event_channel(const char* device);
CmId create_cm_id(rdma_event_channel* ch, void* context, const char* device);

}  // namespace dlcnet::verbs
