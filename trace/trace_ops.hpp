// The operations of a DLC trace and what each one means: one table, inline, because the
// loader asks it several times a record.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dlcnet::trace {

enum class Role : uint8_t { kWorker, kServer, kScheduler };

// Operations as the capture code names them. The first eight are the data operations, in the
// order of the per-operation arrays of the statistics.
enum class Op : uint8_t {
  kPushSendWorker,
  kPushRecvWorker,
  kPullSendWorker,
  kPullRecvWorker,
  kPushRecvServer,
  kPushSendServer,
  kPullRecvServer,
  kPullSendServer,
  kCommandToServers,  // SendCom_TO_Servers / SendCom_To_Servers: on a worker, both directions
  kCommandToWorkers,  // SendCom_TO_Workers / SendCom_To_Workers: on a server, both directions
  kWorkerSendSch,
  kServerSendSch,
  kSchedulerToWorker,
  kSchedulerToServer,
  kSchedulerComm,
};
inline constexpr size_t kNumOps = 15;
inline constexpr size_t kNumDataOps = 8;

// Step of the push/pull cycle of one key, named from the worker's side, which is also the
// position of the record's opnum in its group of four: kPushSend is the worker's push request
// (Push_Send_Worker at the worker, Push_Recv_Server at the server), kPushRecv its
// acknowledgement, kPullSend the pull request, kPullRecv the pull reply. Set-up and scheduler
// messages are kSetup.
enum class Phase : uint8_t { kPushSend = 0, kPushRecv = 1, kPullSend = 2, kPullRecv = 3, kSetup };

// dep_Type of the capture.
enum class DepType : uint8_t {
  kIndependent = 0,
  kPushOnPush = 1,  // a push's reply depends on the push (server: on every worker's push)
  kPullOnPush = 2,  // a pull request after the push is acknowledged
  kPullOnPull = 3,  // a pull reply after the pull request
  kPushOnPull = 4,  // the next push of a key after its pulls (worker: from every server)
};

namespace detail {

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

constexpr const OpInfo& op_info(Op op) noexcept {
  return kOps[static_cast<size_t>(op)];
}

}  // namespace detail

constexpr std::string_view op_name(Op op) noexcept {
  return detail::op_info(op).name;
}
// Short lower-case name used by the native format and the reports: "push_send", "command"..
constexpr std::string_view op_short_name(Op op) noexcept {
  return detail::op_info(op).short_name;
}
constexpr bool op_is_data(Op op) noexcept {
  return static_cast<size_t>(op) < kNumDataOps;
}
// The role of the node whose file holds records of this operation.
constexpr Role op_role(Op op) noexcept {
  return detail::op_info(op).role;
}
constexpr Phase op_phase(Op op) noexcept {
  return detail::op_info(op).phase;
}
// For data operations: true when the node writing the record sends the message.
constexpr bool op_sends(Op op) noexcept {
  return detail::op_info(op).sends;
}
// The operation recorded by the other end of the same message (data and command operations).
constexpr Op op_counterpart(Op op) noexcept {
  return detail::op_info(op).counterpart;
}
// The one non-zero dep_Type a data operation may carry, and the operation its IDdep names.
constexpr DepType op_dep_type(Op op) noexcept {
  return detail::op_info(op).dep_type;
}
constexpr Op op_dep_target(Op op) noexcept {
  return detail::op_info(op).dep_target;
}

// Accepts the capture's names, both SendCom spellings and any letter case. nullopt otherwise.
std::optional<Op> op_from_name(std::string_view name) noexcept;
std::string_view phase_name(Phase phase) noexcept;
std::string_view role_name(Role role) noexcept;
// The data operation of `role` in `phase` (e.g. kServer + kPushSend -> kPushRecvServer).
Op data_op(Role role, Phase phase) noexcept;

}  // namespace dlcnet::trace
