#include "verbs/cm_handles.hpp"

#include <fcntl.h>

#include <cerrno>

#include "verbs/verbs_error.hpp"

namespace dlcnet::verbs {

CmEventChannel& CmEventChannel::operator=(CmEventChannel&& other) noexcept {
  if (this != &other) {
    reset();
    ch_ = std::exchange(other.ch_, nullptr);
  }
  return *this;
}

void CmEventChannel::reset() noexcept {
  if (ch_ != nullptr) rdma_destroy_event_channel(std::exchange(ch_, nullptr));
}

CmId& CmId::operator=(CmId&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = std::exchange(other.id_, nullptr);
  }
  return *this;
}

void CmId::reset() noexcept {
  if (id_ == nullptr) return;
  rdma_cm_id* id = std::exchange(id_, nullptr);
  if (id->qp != nullptr) rdma_destroy_qp(id);
  errno = 0;
  if (rdma_destroy_id(id) != 0) log_verbs_failure("rdma_cm", "rdma_destroy_id", last_errno());
}

CmEventChannel create_nonblocking_event_channel(const char* device) {
  errno = 0;
  CmEventChannel ch(rdma_create_event_channel());
  if (!ch) throw_verbs_error(device, "rdma_create_event_channel", last_errno());
  // Non-blocking so every wait can be bounded with poll() and a deadline.
  const int flags = fcntl(ch.get()->fd, F_GETFL);
  if (flags < 0 || fcntl(ch.get()->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    throw_verbs_error(device, "fcntl(rdma_cm channel, O_NONBLOCK)", last_errno());
  }
  return ch;
}

CmId create_cm_id(rdma_event_channel* ch, void* context, const char* device) {
  rdma_cm_id* id = nullptr;
  errno = 0;
  if (rdma_create_id(ch, &id, context, RDMA_PS_TCP) != 0) {
    throw_verbs_error(device, "rdma_create_id(RDMA_PS_TCP)", last_errno());
  }
  return CmId(id);
}

}  // namespace dlcnet::verbs
