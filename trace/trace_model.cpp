#include "trace/trace_model.hpp"

#include <array>
#include <cctype>

namespace dlcnet::trace {
namespace {

bool iequal(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<Op> op_from_name(std::string_view name) noexcept {
  // Exact names first: this runs once a record.
  for (size_t i = 0; i < kNumOps; ++i) {
    if (detail::kOps[i].name == name) return static_cast<Op>(i);
  }
  // SendCom_To_Servers (the capture writes "TO" on a file's first record, "To" after it).
  for (size_t i = 0; i < kNumOps; ++i) {
    if (iequal(detail::kOps[i].name, name)) return static_cast<Op>(i);
  }
  return std::nullopt;
}

std::string_view phase_name(Phase phase) noexcept {
  switch (phase) {
    case Phase::kPushSend:
      return "push-send";
    case Phase::kPushRecv:
      return "push-recv";
    case Phase::kPullSend:
      return "pull-send";
    case Phase::kPullRecv:
      return "pull-recv";
    case Phase::kSetup:
      return "setup";
  }
  return "?";
}

std::string_view role_name(Role role) noexcept {
  switch (role) {
    case Role::kWorker:
      return "worker";
    case Role::kServer:
      return "server";
    case Role::kScheduler:
      return "scheduler";
  }
  return "?";
}

Op data_op(Role role, Phase phase) noexcept {
  for (size_t i = 0; i < kNumDataOps; ++i) {
    if (detail::kOps[i].role == role && detail::kOps[i].phase == phase) return static_cast<Op>(i);
  }
  return Op::kPushSendWorker;
}

std::string Node::name() const {
  switch (role) {
    case Role::kWorker:
      return "worker" + std::to_string(index);
    case Role::kServer:
      return "server" + std::to_string(index);
    case Role::kScheduler:
      return "scheduler";
  }
  return "?";
}

uint64_t Job::record_count() const noexcept {
  uint64_t n = 0;
  for (const auto& node : nodes) n += node.records.size();
  return n;
}

size_t Job::memory_bytes() const noexcept {
  size_t bytes =
      sizeof(Job) + nodes.capacity() * sizeof(Node) + messages.capacity() * sizeof(Message);
  for (const auto& n : nodes) {
    bytes += n.records.capacity() * sizeof(Record) + n.deps.capacity() * sizeof(uint32_t) +
             n.control.capacity() * sizeof(Record) + n.hostname.capacity() + n.file.capacity() +
             n.sch_file.capacity();
  }
  return bytes;
}

Job make_job_skeleton(uint16_t num_workers, uint16_t num_servers) {
  Job job;
  job.num_workers = num_workers;
  job.num_servers = num_servers;
  job.nodes.resize(static_cast<size_t>(num_workers) + num_servers + 1);
  for (size_t r = 0; r < job.nodes.size(); ++r) {
    Node& n = job.nodes[r];
    n.rank = static_cast<uint16_t>(r);
    if (r < num_workers) {
      n.role = Role::kWorker;
      n.index = static_cast<uint16_t>(r);
    } else if (r < static_cast<size_t>(num_workers) + num_servers) {
      n.role = Role::kServer;
      n.index = static_cast<uint16_t>(r - num_workers);
    } else {
      n.role = Role::kScheduler;
      n.index = 0;
    }
  }
  return job;
}

}  // namespace dlcnet::trace
