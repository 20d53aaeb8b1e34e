#include "patterns/ring/segments.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"

namespace dlcnet::ring {

uint32_t pieces(uint64_t count, uint64_t elems) noexcept {
  if (count == 0) return 0;
  if (elems == 0) return 1;
  return static_cast<uint32_t>((count + elems - 1) / elems);
}

Piece segment(const Piece& x, uint64_t elems, uint32_t j) noexcept {
  if (elems == 0) return x;
  const uint64_t off = uint64_t{j} * elems;
  return Piece{x.buf, x.off + off, std::min(elems, x.count - off)};
}

Segments cut(const Plan& p, uint64_t segment_bytes) {
  Segments s;
  s.elems = segment_bytes / sizeof(float);
  if (segment_bytes > 0 && s.elems == 0) s.elems = 1;
  for (const Step& st : p.steps) {
    uint64_t n = std::max(pieces(st.send.count, s.elems), pieces(st.recv.count, s.elems));
    if (n == 0 && (st.to >= 0 || st.from >= 0)) n = 1;  // an empty message's (--op write)
    if (n >= 65536) {
      throw Error("--segment " + std::to_string(segment_bytes) + " cuts a message of " +
                  std::to_string(st.send.count * sizeof(float)) + " B into " + std::to_string(n) +
                  " segments: at most 65535; raise --segment");
    }
    if (s.total + n >= (uint64_t{1} << 24)) {
      throw Error("--segment " + std::to_string(segment_bytes) + " gives over 2^24 segments in " +
                  "one iteration: raise --segment");
    }
    s.base.push_back(s.total);
    s.count.push_back(static_cast<uint32_t>(n));
    s.total += static_cast<uint32_t>(n);
  }
  return s;
}

}  // namespace dlcnet::ring
