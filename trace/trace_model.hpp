// The job-wide model of a DLC trace: nodes with their records in order, each record's
// dependencies as indices of records at the same node, and the messages matched across the
// sender's and the receiver's files. Compact on purpose (48 bytes a record, dependencies in
// one flat array per node) so that 10 million records stay well under 64 bytes each.
// docs/trace-model.md describes every field and every decision taken where the capture format
// is silent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_ops.hpp"

namespace dlcnet::trace {

// "No such record / message": the other side of a message whose node's file is absent.
inline constexpr uint32_t kNone = 0xFFFF'FFFFu;

// Iteration numbering (docs/trace-model.md, "Iterations"). Within one key and peer, every four
// consecutive opnums are one iteration; the group starts at opnum = 4i - offset where offset is
// 0 on worker 0 (its opnums 0-3 are the initialisation push and pull) and 2 everywhere else.
// numbering_offset() is the offset that puts `opnum` at its phase's position: 0 or 2 for a
// consistent record, 1 or 3 for one whose opnum does not fit its operation.
constexpr int numbering_offset(int32_t opnum, Phase phase) noexcept {
  const int64_t d = static_cast<int64_t>(phase) - static_cast<int64_t>(opnum);
  return static_cast<int>(((d % 4) + 4) % 4);
}
constexpr int32_t iteration_of(int32_t opnum, Phase phase, int offset) noexcept {
  const int64_t n = static_cast<int64_t>(opnum) + offset - static_cast<int64_t>(phase);
  return static_cast<int32_t>(n >= 0 ? n / 4 : -((-n + 3) / 4));  // floor division
}
// In int64, saturated to int32: an iteration near 2^31 (a native file may say so) has no opnum
// that fits, and a saturated one matches nothing rather than overflowing.
constexpr int32_t opnum_of(int32_t iteration, Phase phase, int offset) noexcept {
  const int64_t n = 4 * static_cast<int64_t>(iteration) + static_cast<int64_t>(phase) - offset;
  return static_cast<int32_t>(n > INT32_MAX ? INT32_MAX : n < INT32_MIN ? INT32_MIN : n);
}

// One line of a node's trace. 48 bytes; the replay engine walks these in order.
struct Record {
  int64_t time_ns = 0;       // the node's own clock (time_sec, time_usec); 0 when not recorded
  int64_t dtime_ns = 0;      // dTime: think/service time from the dependency to this record
  uint32_t length = 0;       // bytes of the message, payload and meta
  int32_t key = -1;          // parameter key; -1 for set-up messages
  int32_t opnum = 0;         // operation number as captured (numbering per key and peer)
  int32_t iteration = -1;    // 0 initialisation, 1.. training; -1 set-up messages
  uint32_t dep_begin = 0;    // first dependency in Node::deps (see Node::deps_of)
  uint32_t message = kNone;  // index in Job::messages; kNone for scheduler exchanges
  uint32_t line = 0;         // 1-based line in the source file, for diagnostics
  uint16_t peer = 0;         // rank of the node at the other end of the message
  Op op = Op::kPushSendWorker;
  uint8_t bits = 0;  // dep_Type in the low 3 bits, then the flags below

  static constexpr uint8_t kDepTypeMask = 0x07;
  static constexpr uint8_t kSendFlag = 0x08;       // this node sends the message
  static constexpr uint8_t kInitFlag = 0x10;       // Dep_PP -15: initialisation of the servers
  static constexpr uint8_t kDuplicateFlag = 0x20;  // repeats an earlier record's OP_ID

  DepType dep_type() const noexcept { return static_cast<DepType>(bits & kDepTypeMask); }
  bool is_send() const noexcept { return (bits & kSendFlag) != 0; }
  bool is_init() const noexcept { return (bits & kInitFlag) != 0; }
  bool is_duplicate() const noexcept { return (bits & kDuplicateFlag) != 0; }
  bool is_data() const noexcept { return op_is_data(op); }
  Phase phase() const noexcept { return op_phase(op); }
  void set_dep_type(DepType t) noexcept {
    bits = static_cast<uint8_t>((bits & ~kDepTypeMask) | static_cast<uint8_t>(t));
  }
  void set_flag(uint8_t flag, bool on) noexcept {
    bits = static_cast<uint8_t>(on ? (bits | flag) : (bits & ~flag));
  }
};
static_assert(sizeof(Record) == 48, "Record must stay 48 bytes: the model's memory budget");

struct Node {
  uint16_t rank = 0;   // workers 0..W-1, servers W..W+S-1, scheduler W+S
  uint16_t index = 0;  // worker index or server index (0 for the scheduler)
  Role role = Role::kWorker;
  bool present = false;  // a data file of this node was read
  std::string hostname;
  std::string file;      // trace_record.txt (or native file) it came from
  std::string sch_file;  // trace_sch_record.txt beside it, if read
  std::vector<Record> records;
  // Dependencies of all records, in record order: record i's are
  // deps[records[i].dep_begin, records[i + 1].dep_begin) (deps.size() for the last one).
  std::vector<uint32_t> deps;
  // Exchanges with the scheduler from trace_sch_record.txt: no time stamps, no dependencies,
  // not matched into messages.
  std::vector<Record> control;

  std::span<const uint32_t> deps_of(uint32_t i) const noexcept {
    const uint32_t end =
        i + 1 < records.size() ? records[i + 1].dep_begin : static_cast<uint32_t>(deps.size());
    return {deps.data() + records[i].dep_begin, end - records[i].dep_begin};
  }
  // "worker0", "server1", "scheduler".
  std::string name() const;
};

// One message, matched across the sender's and the receiver's files by key, worker, server,
// iteration and phase (set-up messages by order per sender and receiver).
struct Message {
  uint32_t sender_record = kNone;    // index in nodes[sender].records; kNone: file absent
  uint32_t receiver_record = kNone;  // index in nodes[receiver].records; kNone: file absent
  uint16_t sender = 0;               // node ranks
  uint16_t receiver = 0;
};
static_assert(sizeof(Message) == 12);

struct Job {
  uint16_t num_workers = 0;
  uint16_t num_servers = 0;
  std::vector<Node> nodes;  // indexed by rank: W workers, S servers, the scheduler
  std::vector<Message> messages;

  uint16_t worker_rank(uint16_t i) const noexcept { return i; }
  uint16_t server_rank(uint16_t i) const noexcept { return static_cast<uint16_t>(num_workers + i); }
  uint16_t scheduler_rank() const noexcept {
    return static_cast<uint16_t>(num_workers + num_servers);
  }
  // Whichever side of the message was captured (the sender's when both were).
  const Record& message_record(const Message& m) const noexcept {
    return m.sender_record != kNone ? nodes[m.sender].records[m.sender_record]
                                    : nodes[m.receiver].records[m.receiver_record];
  }
  uint64_t record_count() const noexcept;
  // Bytes the model holds (vector capacities and strings), for the memory budget.
  size_t memory_bytes() const noexcept;
};

// Creates W + S + 1 nodes with their ranks, roles and indices, none present.
Job make_job_skeleton(uint16_t num_workers, uint16_t num_servers);

}  // namespace dlcnet::trace
