#include "patterns/ring/ring_records.hpp"

#include "patterns/ring/segments.hpp"

namespace dlcnet::ring {

void write_size_records(RecordWriter& w, const RingSpec& spec, int rank, size_t k, const Plan& plan,
                        const SizeTimes& times, uint64_t& seq) {
  const Segments segs = cut(plan, spec.segment_bytes);
  for (size_t it = 0; it < times.runs.size(); ++it) {
    const RunTimes& run = times.runs[it];
    const auto opnum = static_cast<int64_t>(k * spec.iterations + it);
    for (size_t i = 0; i < plan.steps.size(); ++i) {
      const Step& s = plan.steps[i];
      for (uint32_t j = 0; j < segs.count[i] && segs.base[i] + j < run.slots.size(); ++j) {
        const SlotTimes& st = run.slots[segs.base[i] + j];
        if (st.post_ns >= 0) {
          MessageRecord m;
          m.seq = seq++;
          m.bytes = segment(s.send, segs.elems, j).count * sizeof(float);
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
          m.bytes = segment(s.recv, segs.elems, j).count * sizeof(float);
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
