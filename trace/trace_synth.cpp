// dlc-trace synth, the traffic: set-up commands, the initialisation by worker 0, and the
// push/pull rounds of every training iteration (docs/trace-model.md, "Synthetic jobs").
#include "trace/trace_synth_generator.hpp"

namespace dlcnet::trace::synth {

int64_t Generator::command(int64_t t, uint16_t server) {
  const uint16_t w0 = job_.worker_rank(0);
  const Ref a = add(w0, t, Op::kCommandToServers, server, -1, -1, meta() + 16, {}, 0);
  const Ref b = add(server, t + latency(16), Op::kCommandToWorkers, w0, -1, -1, meta() + 16, {}, 0);
  job_.nodes[server].records[b.idx].set_flag(Record::kSendFlag, false);
  message(w0, a, server, b);
  const Ref c = add(server, b.t + 2, Op::kCommandToWorkers, w0, -1, -1, meta(), {}, 0);
  const Ref d = add(w0, c.t + latency(0), Op::kCommandToServers, server, -1, -1, meta(), {}, 0);
  job_.nodes[w0].records[d.idx].set_flag(Record::kSendFlag, false);
  message(server, c, w0, d);
  return d.t;
}

void Generator::initialise() {
  const uint16_t W = c_.workers;
  const size_t K = slices_.size();
  int64_t t = 0;
  for (uint16_t s = 0; s < c_.servers; ++s) t = std::max(t, command(5 * s, job_.server_rank(s)));
  // Worker 0 initialises every key on its server(s): push (Dep_PP -15) and acknowledgement.
  std::vector<std::vector<Ref>> init_ack(K);  // server's acknowledgement to worker 0
  std::vector<std::vector<Ref>> w0_ack(K);
  t += 10;
  int64_t acked = t;
  for (size_t k = 0; k < K; ++k) {
    for (const Slice& sl : slices_[k]) {
      const auto key = static_cast<int32_t>(k);
      const uint64_t len = meta() + sl.bytes;
      const Ref psw = add(0, t, Op::kPushSendWorker, sl.server, key, 0, len, {}, 0, true);
      const Ref prs =
          add(sl.server, t + latency(sl.bytes), Op::kPushRecvServer, 0, key, 0, len, {}, 0, true);
      message(0, psw, sl.server, prs);
      const int64_t ts = prs.t + jittered(c_.update_s);
      const Ref pss =
          add(sl.server, ts, Op::kPushSendServer, 0, key, 0, meta(), {prs}, ts - prs.t, true);
      const int64_t tr = pss.t + latency(0);
      const Ref prw =
          add(0, tr, Op::kPushRecvWorker, sl.server, key, 0, meta(), {psw}, tr - psw.t, true);
      message(sl.server, pss, 0, prw);
      init_ack[k].push_back(pss);
      w0_ack[k].push_back(prw);
      acked = std::max(acked, prw.t);
      t += 2;
    }
  }
  // Barrier at the scheduler, then every worker pulls every key once.
  const int64_t barrier = acked + 2 * latency(0);
  last_pull_.assign(W, std::vector<std::vector<Ref>>(K));
  last_answer_.assign(K, {});
  for (size_t k = 0; k < K; ++k) last_answer_[k].assign(slices_[k].size(), std::vector<Ref>(W));
  ready_.assign(W, 0);
  for (uint16_t w = 0; w < W; ++w) {
    int64_t tw = barrier + 3 * w;
    for (size_t k = 0; k < K; ++k) {
      for (size_t i = 0; i < slices_[k].size(); ++i) {
        const Slice& sl = slices_[k][i];
        const auto key = static_cast<int32_t>(k);
        const Ref plsw = w == 0 ? add(w, tw, Op::kPullSendWorker, sl.server, key, 0, meta(),
                                      {w0_ack[k][i]}, tw - w0_ack[k][i].t)
                                : add(w, tw, Op::kPullSendWorker, sl.server, key, 0, meta(), {}, 0);
        const int64_t t1 = plsw.t + latency(0);
        const Ref plrs = add(sl.server, t1, Op::kPullRecvServer, w, key, 0, meta(),
                             {init_ack[k][i]}, t1 - init_ack[k][i].t);
        message(w, plsw, sl.server, plrs);
        const int64_t t2 = plrs.t + jittered(c_.search_s);
        const uint64_t len = meta() + sl.bytes;
        const Ref plss =
            add(sl.server, t2, Op::kPullSendServer, w, key, 0, len, {plrs}, t2 - plrs.t);
        const int64_t t3 = plss.t + latency(sl.bytes);
        const Ref plrw =
            add(w, t3, Op::kPullRecvWorker, sl.server, key, 0, len, {plsw}, t3 - plsw.t);
        message(sl.server, plss, w, plrw);
        last_pull_[w][k].push_back(plrw);
        last_answer_[k][i][w] = plss;
        ready_[w] = std::max(ready_[w], plrw.t);
        tw += 2;
      }
    }
  }
}

void Generator::iterate(int32_t it) {
  const uint16_t W = c_.workers;
  const size_t K = slices_.size();
  // [key][slice][worker]: the server's push record and the worker's push record.
  std::vector<std::vector<std::vector<Ref>>> pushed(K), sent(K);
  for (size_t k = 0; k < K; ++k) {
    pushed[k].assign(slices_[k].size(), std::vector<Ref>(W));
    sent[k].assign(slices_[k].size(), std::vector<Ref>(W));
  }
  for (uint16_t w = 0; w < W; ++w) {
    // Computation: phase 1 alone, then backward pushes the gradients last key first, the last
    // one exactly `compute` after the previous iteration's last pull reply.
    const int64_t start = ready_[w];
    const int64_t comp = jittered(c_.compute_s);
    const auto phase1 =
        static_cast<int64_t>(std::llround(static_cast<double>(comp) * (1.0 - c_.overlap)));
    const auto steps = static_cast<int64_t>(K > 1 ? K - 1 : 1);
    for (size_t j = 0; j < K; ++j) {
      const size_t k = K - 1 - j;
      const int64_t t = start + phase1 +
                        (K > 1 ? (comp - phase1) * static_cast<int64_t>(j) / steps : comp - phase1);
      const auto key = static_cast<int32_t>(k);
      for (size_t i = 0; i < slices_[k].size(); ++i) {
        const Slice& sl = slices_[k][i];
        const uint64_t len = meta() + sl.bytes;
        const auto& prev = last_pull_[w][k];
        Ref psw;
        if (prev.size() == 1) {
          psw = add(w, t, Op::kPushSendWorker, sl.server, key, it, len, {prev[0]}, t - prev[i].t);
        } else {
          psw = add(w, t, Op::kPushSendWorker, sl.server, key, it, len, {}, t - prev[i].t);
          Node& n = job_.nodes[w];
          for (const Ref& p : prev) n.deps.push_back(p.idx);  // one-to-many: every server
          n.records.back().set_dep_type(DepType::kPushOnPull);
        }
        const Ref& answer = last_answer_[k][i][w];
        const int64_t ta = t + latency(sl.bytes);
        const Ref prs =
            add(sl.server, ta, Op::kPushRecvServer, w, key, it, len, {answer}, ta - answer.t);
        message(w, psw, sl.server, prs);
        sent[k][i][w] = psw;
        pushed[k][i][w] = prs;
      }
    }
  }
  std::vector<int64_t> ready(W, 0);
  for (size_t k = 0; k < K; ++k) {
    const auto key = static_cast<int32_t>(k);
    for (size_t i = 0; i < slices_[k].size(); ++i) {
      const Slice& sl = slices_[k][i];
      int64_t last = 0;
      for (const Ref& p : pushed[k][i]) last = std::max(last, p.t);
      const int64_t updated = last + jittered(c_.update_s);
      for (uint16_t w = 0; w < W; ++w) {
        // The acknowledgement waits for every worker's push (synchronous mode).
        const int64_t ts = updated + w;
        const Ref pss =
            add(sl.server, ts, Op::kPushSendServer, w, key, it, meta(), {}, ts - pushed[k][i][w].t);
        Node& srv = job_.nodes[sl.server];
        for (const Ref& p : pushed[k][i]) srv.deps.push_back(p.idx);
        srv.records.back().set_dep_type(DepType::kPushOnPush);
        const int64_t t1 = ts + latency(0);
        const Ref prw = add(w, t1, Op::kPushRecvWorker, sl.server, key, it, meta(), {sent[k][i][w]},
                            t1 - sent[k][i][w].t);
        message(sl.server, pss, w, prw);
        const int64_t t2 = t1 + jittered(c_.think_s);
        const Ref plsw =
            add(w, t2, Op::kPullSendWorker, sl.server, key, it, meta(), {prw}, t2 - t1);
        const int64_t t3 = t2 + latency(0);
        const Ref plrs =
            add(sl.server, t3, Op::kPullRecvServer, w, key, it, meta(), {pss}, t3 - ts);
        message(w, plsw, sl.server, plrs);
        const int64_t t4 = t3 + jittered(c_.search_s);
        const uint64_t len = meta() + sl.bytes;
        const Ref plss = add(sl.server, t4, Op::kPullSendServer, w, key, it, len, {plrs}, t4 - t3);
        const int64_t t5 = t4 + latency(sl.bytes);
        const Ref plrw = add(w, t5, Op::kPullRecvWorker, sl.server, key, it, len, {plsw}, t5 - t2);
        message(sl.server, plss, w, plrw);
        last_pull_[w][k][i] = plrw;
        last_answer_[k][i][w] = plss;
        ready[w] = std::max(ready[w], t5);
      }
    }
  }
  ready_ = ready;
}

}  // namespace dlcnet::trace::synth
