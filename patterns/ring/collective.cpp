#include "patterns/ring/collective.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"

namespace dlcnet::ring {

Layout even_chunks(uint64_t count, int ranks) {
  Layout l;
  l.ranks = ranks;
  l.count = count;
  const auto n = static_cast<uint64_t>(ranks);
  uint64_t off = 0;
  for (uint64_t c = 0; c < n; ++c) {
    const uint64_t len = count / n + (c < count % n ? 1 : 0);
    l.chunk_off.push_back(off);
    l.chunk_count.push_back(len);
    off += len;
    l.max_chunk = std::max(l.max_chunk, len);
  }
  return l;
}

Layout whole_vector(uint64_t bytes, int ranks) {
  return even_chunks(bytes / sizeof(float), ranks);
}

double one_pass_factor(int ranks) {
  return static_cast<double>(ranks - 1) / ranks;
}

double unit_factor(int) {
  return 1.0;
}

void fill_whole(float* in, const Layout& l, int rank, uint32_t t) {
  for (uint64_t g = 0; g < l.count; ++g) in[g] = input_value(rank, g, t);
}

uint64_t middle_element(const Layout& l, int) {
  return l.count ? l.count / 2 : kNoElement;
}

Layout whole_message(uint64_t bytes, int ranks) {
  Layout l = whole_vector(bytes, ranks);
  l.max_chunk = l.count;  // sizes the messages and their segments
  return l;
}

void fill_at_root(float* in, const Layout& l, int rank, uint32_t t) {
  if (rank == l.root) fill_whole(in, l, rank, t);
}

void fill_own_chunk(float* in, const Layout& l, int rank, uint32_t t) {
  const auto r = static_cast<size_t>(rank);
  for (uint64_t g = l.chunk_off[r]; g < l.chunk_off[r] + l.chunk_count[r]; ++g) {
    in[g] = input_value(rank, g, t);
  }
}

uint64_t own_chunk_start(const Layout& l, int rank) {
  const auto r = static_cast<size_t>(rank);
  return l.chunk_count[r] ? l.chunk_off[r] : kNoElement;
}

uint64_t wrong_gathered(const float* out, const Layout& l, uint32_t t) {
  uint64_t wrong = 0;
  for (int c = 0; c < l.ranks; ++c) {
    const auto i = static_cast<size_t>(c);
    for (uint64_t g = l.chunk_off[i]; g < l.chunk_off[i] + l.chunk_count[i]; ++g) {
      wrong += out[g] != input_value(c, g, t);
    }
  }
  return wrong;
}

Piece chunk_piece(const Layout& l, Buf b, int c) {
  const auto i = static_cast<size_t>(c);
  return Piece{b, l.chunk_off[i], l.chunk_count[i]};
}

uint64_t vector_elems(const Layout& l, const Plan& p) {
  uint64_t n = l.count;
  for (const Step& s : p.steps) {
    for (const Piece& x : {s.send, s.recv}) {
      if (x.buf != Buf::stage && x.count > 0) n = std::max(n, x.off + x.count);
    }
  }
  return n;
}

namespace {

#define DLCNET_TABLE_ENTRY(def) &def,
const CollectiveDef* const kTable[] = {DLCNET_RING_COLLECTIVES(DLCNET_TABLE_ENTRY)};
#undef DLCNET_TABLE_ENTRY

}  // namespace

const CollectiveDef* find_collective(std::string_view name) noexcept {
  for (const CollectiveDef* d : kTable) {
    if (name == d->name) return d;
  }
  return nullptr;
}

std::vector<std::string> collective_names() {
  std::vector<std::string> names;
  for (const CollectiveDef* d : kTable) names.emplace_back(d->name);
  return names;
}

const CollectiveDef& collective(std::string_view name) {
  if (const CollectiveDef* d = find_collective(name)) return *d;
  std::string list;
  for (const std::string& n : collective_names()) list += (list.empty() ? "" : ", ") + n;
  throw Error("unknown collective '" + std::string(name) + "': the collectives are " + list);
}

Layout layout_of(const CollectiveDef& def, uint64_t bytes, int ranks, int root, bool in_place) {
  Layout l = def.layout(bytes, ranks);
  l.root = root;
  l.in_place = in_place;
  return l;
}

Plan plan_for(const CollectiveDef& def, const Layout& l, int rank) {
  Plan p = def.plan(l, rank);
  std::vector<Plan> peers(static_cast<size_t>(l.ranks));
  for (Step& s : p.steps) {
    if (s.to < 0) continue;
    Plan& peer = peers[static_cast<size_t>(s.to)];
    if (peer.steps.empty()) peer = def.plan(l, s.to);
    // The peer receives this rank's message in the same step (a ring step, or the pairwise
    // exchange's step s, where r+s hears from r).
    s.remote = peer.steps[static_cast<size_t>(&s - p.steps.data())].recv;
  }
  return p;
}

}  // namespace dlcnet::ring
