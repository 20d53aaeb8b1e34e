#include "patterns/ring/ring_records.hpp"

namespace dlcnet::ring {

void write_records(RecordWriter& w, const RingSpec& spec, int rank, const std::vector<Plan>& plans,
                   const std::vector<SizeTimes>& times) {
  uint64_t seq = 0;
  for (size_t k = 0; k < times.size() && k < plans.size(); ++k) {
    for (size_t it = 0; it < times[k].runs.size(); ++it) {
      const RunTimes& run = times[k].runs[it];
      const auto opnum = static_cast<int64_t>(k * spec.iterations + it);
      for (size_t i = 0; i < run.steps.size() && i < plans[k].steps.size(); ++i) {
        const Step& s = plans[k].steps[i];
        const StepTimes& st = run.steps[i];
        if (st.post_ns >= 0) {
          MessageRecord m;
          m.seq = seq++;
          m.bytes = s.send.count * sizeof(float);
          m.src = rank;
          m.dst = s.to;
          m.op = spec.op;
          m.post_ns = st.post_ns;
          m.complete_ns = st.complete_ns;
          m.key = static_cast<int64_t>(i);
          m.opnum = opnum;
          w.write(m);
        }
        if (st.arrival_ns >= 0) {
          MessageRecord m;
          m.seq = seq++;
          m.bytes = s.recv.count * sizeof(float);
          m.src = s.from;
          m.dst = rank;
          m.op = Op::recv;
          m.arrival_ns = st.arrival_ns;
          m.key = static_cast<int64_t>(i);
          m.opnum = opnum;
          w.write(m);
        }
      }
    }
  }
}

}  // namespace dlcnet::ring
