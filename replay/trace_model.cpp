#include "replay/trace_model.hpp"

#include <array>
#include <cctype>

namespace dlcnet::trace {
namespace {

struct OpInfo {
  std::string_view name;
  std::string_view short_name;
  Role role;
  Phase phase;
  bool sends;  // data operations only; set-up records carry their direction in Record::bits
  Op counterpart;
  DepType dep_type;
  Op dep_target;
};

// One row per Op, in enum order.
constexpr std::array<OpInfo, kNumOps> kOps{{
    {"Push_Send_Worker", "push_send", Role::kWorker, Phase::kPushSend, true, Op::kPushRecvServer,
     DepType::kPushOnPull, Op::kPullRecvWorker},
    {"Push_Recv_Worker", "push_recv", Role::kWorker, Phase::kPushRecv, false, Op::kPushSendServer,
     DepType::kPushOnPush, Op::kPushSendWorker},
    {"Pull_Send_Worker", "pull_send", Role::kWorker, Phase::kPullSend, true, Op::kPullRecvServer,
     DepType::kPullOnPush, Op::kPushRecvWorker},
    {"Pull_Recv_Worker", "pull_recv", Role::kWorker, Phase::kPullRecv, false, Op::kPullSendServer,
     DepType::kPullOnPull, Op::kPullSendWorker},
    {"Push_Recv_Server", "push_recv", Role::kServer, Phase::kPushSend, false, Op::kPushSendWorker,
     DepType::kPushOnPull, Op::kPullSendServer},
    {"Push_Send_Server", "push_send", Role::kServer, Phase::kPushRecv, true, Op::kPushRecvWorker,
     DepType::kPushOnPush, Op::kPushRecvServer},
    {"Pull_Recv_Server", "pull_recv", Role::kServer, Phase::kPullSend, false, Op::kPullSendWorker,
     DepType::kPullOnPush, Op::kPushSendServer},
    {"Pull_Send_Server", "pull_send", Role::kServer, Phase::kPullRecv, true, Op::kPullRecvWorker,
     DepType::kPullOnPull, Op::kPullRecvServer},
    {"SendCom_TO_Servers", "command", Role::kWorker, Phase::kSetup, true, Op::kCommandToWorkers,
     DepType::kIndependent, Op::kCommandToServers},
    {"SendCom_TO_Workers", "command", Role::kServer, Phase::kSetup, true, Op::kCommandToServers,
     DepType::kIndependent, Op::kCommandToWorkers},
    {"Worker_Send_Sch", "sch_send", Role::kWorker, Phase::kSetup, true, Op::kSchedulerComm,
     DepType::kIndependent, Op::kWorkerSendSch},
    {"Server_Send_Sch", "sch_send", Role::kServer, Phase::kSetup, true, Op::kSchedulerComm,
     DepType::kIndependent, Op::kServerSendSch},
    {"Scheduler_to_Worker", "sch_recv", Role::kWorker, Phase::kSetup, false, Op::kSchedulerComm,
     DepType::kIndependent, Op::kSchedulerToWorker},
    {"Scheduler_to_Server", "sch_recv", Role::kServer, Phase::kSetup, false, Op::kSchedulerComm,
     DepType::kIndependent, Op::kSchedulerToServer},
    {"Scheduler_Comm", "sch_comm", Role::kScheduler, Phase::kSetup, true, Op::kSchedulerComm,
     DepType::kIndependent, Op::kSchedulerComm},
}};

const OpInfo& info(Op op) noexcept {
  return kOps[static_cast<size_t>(op)];
}

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

std::string_view op_name(Op op) noexcept {
  return info(op).name;
}

std::optional<Op> op_from_name(std::string_view name) noexcept {
  // Exact names first: this runs once a record.
  for (size_t i = 0; i < kNumOps; ++i) {
    if (kOps[i].name == name) return static_cast<Op>(i);
  }
  // SendCom_To_Servers (the capture writes "TO" on a file's first record, "To" after it).
  for (size_t i = 0; i < kNumOps; ++i) {
    if (iequal(kOps[i].name, name)) return static_cast<Op>(i);
  }
  return std::nullopt;
}

std::string_view op_short_name(Op op) noexcept {
  return info(op).short_name;
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

Role op_role(Op op) noexcept {
  return info(op).role;
}
Phase op_phase(Op op) noexcept {
  return info(op).phase;
}
bool op_sends(Op op) noexcept {
  return info(op).sends;
}
Op op_counterpart(Op op) noexcept {
  return info(op).counterpart;
}
DepType op_dep_type(Op op) noexcept {
  return info(op).dep_type;
}
Op op_dep_target(Op op) noexcept {
  return info(op).dep_target;
}

Op data_op(Role role, Phase phase) noexcept {
  for (size_t i = 0; i < kNumDataOps; ++i) {
    if (kOps[i].role == role && kOps[i].phase == phase) return static_cast<Op>(i);
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
