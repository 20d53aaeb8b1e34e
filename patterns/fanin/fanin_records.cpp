#include "patterns/fanin/fanin_records.hpp"

namespace dlcnet::fanin {

void write_server_records(RecordWriter& w, const FaninSpec& spec, int workers,
                          const ServerTimes& t) {
  uint64_t seq = 0;
  for (size_t i = 0; i < t.rounds.size(); ++i) {
    const ServerRound& r = t.rounds[i];
    for (size_t wi = 0; wi < r.arrival_ns.size(); ++wi) {
      for (size_t k = 0; k < r.arrival_ns[wi].size(); ++k) {
        MessageRecord m;
        m.seq = seq++;
        m.bytes = spec.burst[k];
        m.src = static_cast<int32_t>(wi + 1);
        m.dst = kServer;
        m.op = Op::recv;
        m.arrival_ns = r.arrival_ns[wi][k];
        m.key = static_cast<int64_t>(k);
        m.opnum = static_cast<int64_t>(i);
        w.write(m);
      }
      for (size_t k = 0; k < r.pull_post_ns[wi].size(); ++k) {
        MessageRecord m;
        m.seq = seq++;
        m.bytes = spec.burst[k];
        m.src = kServer;
        m.dst = static_cast<int32_t>(wi + 1);
        m.op = Op::send;
        m.post_ns = r.pull_post_ns[wi][k];
        m.key = static_cast<int64_t>(k);
        m.opnum = static_cast<int64_t>(i);
        w.write(m);
      }
    }
  }
  for (size_t b = 0; b < t.bg_arrival_ns.size(); ++b) {
    for (size_t j = 0; j < t.bg_arrival_ns[b].size(); ++j) {
      MessageRecord m;
      m.seq = seq++;
      m.bytes = spec.bg_size;
      m.src = workers + 1 + static_cast<int32_t>(b);
      m.dst = kServer;
      m.op = Op::recv;
      m.arrival_ns = t.bg_arrival_ns[b][j];
      m.opnum = static_cast<int64_t>(j);
      w.write(m);
    }
  }
}

void write_worker_records(RecordWriter& w, const FaninSpec& spec, int rank,
                          const std::vector<WorkerRound>& t) {
  uint64_t seq = 0;
  for (const WorkerRound& r : t) {
    for (size_t k = 0; k < r.post_ns.size(); ++k) {
      MessageRecord m;
      m.seq = seq++;
      m.bytes = spec.burst[k];
      m.src = rank;
      m.dst = kServer;
      m.op = spec.op;
      m.post_ns = r.post_ns[k];
      m.complete_ns = r.complete_ns[k];
      m.key = static_cast<int64_t>(k);
      m.opnum = r.round;
      w.write(m);
    }
    for (size_t k = 0; k < r.pull_arrival_ns.size(); ++k) {
      MessageRecord m;
      m.seq = seq++;
      m.bytes = spec.burst[k];
      m.src = kServer;
      m.dst = rank;
      m.op = Op::recv;
      m.arrival_ns = r.pull_arrival_ns[k];
      m.key = static_cast<int64_t>(k);
      m.opnum = r.round;
      w.write(m);
    }
  }
}

void write_background_records(RecordWriter& w, const FaninSpec& spec, int rank,
                              const BackgroundTimes& t) {
  for (size_t j = 0; j < t.post_ns.size(); ++j) {
    MessageRecord m;
    m.seq = j;
    m.bytes = spec.bg_size;
    m.src = rank;
    m.dst = kServer;
    m.op = Op::send;
    m.post_ns = t.post_ns[j];
    m.opnum = static_cast<int64_t>(j);
    w.write(m);
  }
}

}  // namespace dlcnet::fanin
