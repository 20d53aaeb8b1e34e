#include "patterns/ring/ring_times.hpp"

#include <string>

#include "core/error.hpp"
#include "core/wire.hpp"

namespace dlcnet::ring {
namespace {

// A count read from the wire, checked against the bytes left (each element at least `min`).
uint32_t count(WireReader& r, const char* field, size_t min, int rank) {
  const uint32_t n = r.u32(field);
  if (static_cast<uint64_t>(n) * min > r.remaining()) {
    throw ProtocolError("ring times of rank " + std::to_string(rank) + ": " + field + " " +
                        "count " + std::to_string(n) + " exceeds the " +
                        std::to_string(r.remaining()) + " bytes left");
  }
  return n;
}

}  // namespace

Bytes encode(const std::vector<SizeTimes>& sizes) {
  WireWriter w;
  w.u32(static_cast<uint32_t>(sizes.size()));
  for (const SizeTimes& s : sizes) {
    w.u64(s.wrong).u64(s.checked).u32(static_cast<uint32_t>(s.runs.size()));
    for (const RunTimes& r : s.runs) {
      w.i64(r.entry_ns).i64(r.end_ns).u32(static_cast<uint32_t>(r.steps.size()));
      for (const StepTimes& st : r.steps) w.i64(st.post_ns).i64(st.complete_ns).i64(st.arrival_ns);
    }
  }
  return w.take();
}

std::vector<SizeTimes> decode(const Bytes& b, int rank) {
  WireReader rd(b, "ring times of rank " + std::to_string(rank));
  std::vector<SizeTimes> out(count(rd, "sizes", 20, rank));
  for (SizeTimes& s : out) {
    s.wrong = rd.u64("wrong");
    s.checked = rd.u64("checked");
    s.runs.resize(count(rd, "iterations", 20, rank));
    for (RunTimes& r : s.runs) {
      r.entry_ns = rd.i64("entry");
      r.end_ns = rd.i64("end");
      r.steps.resize(count(rd, "steps", 24, rank));
      for (StepTimes& st : r.steps) {
        st.post_ns = rd.i64("post");
        st.complete_ns = rd.i64("complete");
        st.arrival_ns = rd.i64("arrival");
      }
    }
  }
  rd.expect_end();
  return out;
}

}  // namespace dlcnet::ring
