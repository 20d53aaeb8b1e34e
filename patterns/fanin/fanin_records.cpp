#include "patterns/fanin/fanin_records.hpp"

namespace dlcnet::fanin {
namespace {

// One record with the fields every fan-in record has; the caller sets its one time.
MessageRecord record(uint64_t seq, uint64_t bytes, int src, int dst, Op op, int64_t key,
                     int64_t opnum) {
  MessageRecord m;
  m.seq = seq;
  m.bytes = bytes;
  m.src = src;
  m.dst = dst;
  m.op = op;
  m.key = key;
  m.opnum = opnum;
  return m;
}

}  // namespace

void write_server_round(RecordWriter& w, const FaninSpec& spec, int64_t round, const ServerRound& r,
                        uint64_t& seq) {
  for (size_t wi = 0; wi < r.arrival_ns.size(); ++wi) {
    const int worker = static_cast<int>(wi) + 1;
    for (size_t k = 0; k < r.arrival_ns[wi].size(); ++k) {
      MessageRecord m =
          record(seq++, spec.burst[k], worker, kServer, Op::recv, static_cast<int64_t>(k), round);
      m.arrival_ns = r.arrival_ns[wi][k];
      w.write(m);
    }
    for (size_t k = 0; k < r.pull_post_ns[wi].size(); ++k) {
      MessageRecord m =
          record(seq++, spec.burst[k], kServer, worker, Op::send, static_cast<int64_t>(k), round);
      m.post_ns = r.pull_post_ns[wi][k];
      w.write(m);
    }
  }
}

void write_server_background(RecordWriter& w, const FaninSpec& spec, int workers,
                             const ServerTimes& t, uint64_t& seq) {
  for (size_t b = 0; b < t.bg_arrival_ns.size(); ++b) {
    for (size_t j = 0; j < t.bg_arrival_ns[b].size(); ++j) {
      MessageRecord m = record(seq++, spec.bg_size, workers + 1 + static_cast<int>(b), kServer,
                               Op::recv, -1, static_cast<int64_t>(j));
      m.arrival_ns = t.bg_arrival_ns[b][j];
      w.write(m);
    }
  }
}

void write_worker_round(RecordWriter& w, const FaninSpec& spec, int rank, const WorkerRound& r,
                        uint64_t& seq) {
  for (size_t k = 0; k < r.post_ns.size(); ++k) {
    MessageRecord m =
        record(seq++, spec.burst[k], rank, kServer, spec.op, static_cast<int64_t>(k), r.round);
    m.post_ns = r.post_ns[k];
    m.complete_ns = r.complete_ns[k];
    w.write(m);
  }
  for (size_t k = 0; k < r.pull_arrival_ns.size(); ++k) {
    MessageRecord m =
        record(seq++, spec.burst[k], kServer, rank, Op::recv, static_cast<int64_t>(k), r.round);
    m.arrival_ns = r.pull_arrival_ns[k];
    w.write(m);
  }
}

void write_background_records(RecordWriter& w, const FaninSpec& spec, int rank,
                              const BackgroundTimes& t) {
  for (size_t j = 0; j < t.post_ns.size(); ++j) {
    MessageRecord m = record(j, spec.bg_size, rank, kServer, Op::send, -1, static_cast<int64_t>(j));
    m.post_ns = t.post_ns[j];
    w.write(m);
  }
}

}  // namespace dlcnet::fanin
