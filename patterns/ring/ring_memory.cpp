#include "patterns/ring/ring_memory.hpp"

#include <algorithm>

#include "patterns/ring/segments.hpp"

namespace dlcnet::ring {
namespace {

constexpr uint64_t kAlign = 64;

uint64_t up(uint64_t x) noexcept {
  return (x + kAlign - 1) / kAlign * kAlign;
}

}  // namespace

uint64_t RegionMap::offset(const Piece& x, unsigned p) const noexcept {
  const uint64_t base = x.buf == Buf::in ? in : x.buf == Buf::out ? out[p & 1] : stage[p & 1];
  return base + x.off * sizeof(float);
}

RegionMap region_map(const RingSpec& spec, int ranks) {
  const CollectiveDef& def = collective(spec.collective);
  uint64_t count = 0, stage = 0, steps = 0;
  for (uint64_t bytes : spec.sizes) {
    const Layout l = layout_of(def, bytes, ranks, spec.root, spec.in_place);
    // Every rank's plan has the same steps and staging but a rooted collective's: there the
    // root's, which receives what any other rank does (rank 0 may be a chain's head, which
    // receives nothing). l.root is 0 when the collective has no root.
    const Plan p = def.plan(l, l.root);
    count = std::max(count, vector_elems(l, p));
    const uint64_t per =
        std::max<uint64_t>(1, pieces(l.max_chunk, spec.segment_bytes / sizeof(float)));
    steps = std::max<uint64_t>(steps, p.steps.size() * per);
    for (const Step& s : p.steps) {
      if (s.recv.buf == Buf::stage) stage = std::max(stage, s.recv.off + s.recv.count);
    }
  }
  RegionMap m;
  const uint64_t vec = up(count * sizeof(float)), st = up(stage * sizeof(float));
  m.in = 0;
  m.out[0] = vec;
  const uint64_t sets = def.one_buffer_set ? 1 : 2;
  m.out[1] = sets * vec;
  m.stage[0] = (1 + sets) * vec;
  m.stage[1] = m.stage[0] + (sets - 1) * st;
  m.notify_send = m.stage[0] + sets * st;
  m.notify_recv[0] = m.notify_send + up(steps * kNotifyBytes);
  m.notify_recv[1] = m.notify_recv[0] + up(steps * kNotifyBytes);
  m.max_slots = steps;
  m.total = m.notify_recv[1] + up(steps * kNotifyBytes);
  return m;
}

}  // namespace dlcnet::ring
