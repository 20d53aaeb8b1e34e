#include "trace/chakra/chakra_collectives.hpp"

namespace dlcnet::trace::chakra {
namespace {

uint64_t mul_sat(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t add_sat(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

// A buffer of `size` bytes cut into n chunks.
struct Chunks {
  uint64_t size;
  uint64_t n;
  uint64_t operator()(int64_t i) const {
    const auto k = static_cast<uint64_t>(((i % static_cast<int64_t>(n)) + static_cast<int64_t>(n)) %
                                         static_cast<int64_t>(n));
    return size / n + (k < size % n ? 1 : 0);
  }
};

int32_t wrap(int64_t i, int32_t n) {
  return static_cast<int32_t>(((i % n) + n) % n);
}

}  // namespace

Traffic& Traffic::operator+=(const Traffic& o) noexcept {
  sends = add_sat(sends, o.sends);
  send_bytes = add_sat(send_bytes, o.send_bytes);
  recvs = add_sat(recvs, o.recvs);
  recv_bytes = add_sat(recv_bytes, o.recv_bytes);
  return *this;
}

std::vector<Step> steps(Collective c, uint64_t size, int32_t n, int32_t rank,
                        const CollectiveOptions& o) {
  std::vector<Step> out;
  if (n <= 1) return out;
  const int64_t r = rank;
  // The whole buffer: under the per-rank reading, comm_size is one rank's piece of it.
  const bool per_rank = o.size_reading == SizeReading::kPerRank;
  const uint64_t whole = per_rank ? mul_sat(size, static_cast<uint64_t>(n)) : size;
  const Chunks chunk{whole, static_cast<uint64_t>(n)};
  const Chunks vec{size, static_cast<uint64_t>(n)};  // all-reduce, all-to-all: comm_size cut
  // A per-rank piece: a chunk of the whole buffer, or comm_size itself.
  const auto piece = [&](int64_t i) { return per_rank ? size : chunk(i); };
  const auto step = [&](uint32_t round, int64_t peer, uint64_t bytes, bool send) {
    out.push_back(Step{round, wrap(peer, n), bytes, send});
  };
  // A ring from round `round0`: in its k-th round a rank sends chunk `first - k` to the next
  // rank and receives chunk `first - 1 - k` from the previous one, n-1 rounds.
  const auto ring = [&](uint32_t round0, const Chunks& ch, int64_t first) {
    for (int32_t k = 0; k < n - 1; ++k) {
      step(round0 + static_cast<uint32_t>(k), r + 1, ch(first - k), true);
      step(round0 + static_cast<uint32_t>(k), r - 1, ch(first - 1 - k), false);
    }
  };
  const int64_t root = o.root;
  const bool is_root = rank == o.root;
  // Flat trees: the root and every other rank, one message each way asked for.
  const auto from_root = [&](uint32_t round, auto bytes) {
    for (int32_t j = 1; j < n && is_root; ++j) step(round, root + j, bytes(root + j), true);
    if (!is_root) step(round, root, bytes(r), false);
  };
  const auto to_root = [&](uint32_t round, auto bytes) {
    if (!is_root) step(round, root, bytes(r), true);
    for (int32_t j = 1; j < n && is_root; ++j) step(round, root + j, bytes(root + j), false);
  };
  const auto whole_size = [&](int64_t) { return size; };
  switch (c) {
    case Collective::kAllReduce:  // ring: reduce-scatter, then all-gather; comm_size the vector
      ring(0, vec, r - 1);
      ring(static_cast<uint32_t>(n - 1), vec, r);
      break;
    case Collective::kReduceScatter:
    case Collective::kReduceScatterBlock:  // ring: every chunk but its own, then its own summed
      ring(0, chunk, r - 1);
      break;
    case Collective::kAllGather:  // ring: its own chunk first, every chunk but the next's
      ring(0, chunk, r);
      break;
    case Collective::kAllToAll:  // pairwise: block j of its buffer to rank j
      for (int32_t k = 1; k < n; ++k) {
        step(0, r + k, vec(r + k), true);
        step(0, r - k, vec(r), false);
      }
      break;
    case Collective::kBroadcast:  // flat: the root sends the buffer to every rank
      from_root(0, whole_size);
      break;
    case Collective::kReduce:  // flat: every rank sends its buffer to the root
      to_root(0, whole_size);
      break;
    case Collective::kGather:  // flat: every rank sends its piece to the root
      to_root(0, piece);
      break;
    case Collective::kScatter:  // flat: the root sends every rank its piece
      from_root(0, piece);
      break;
    case Collective::kBarrier:  // flat: zero-byte messages to the root, then back
      to_root(0, [](int64_t) { return uint64_t{0}; });
      from_root(1, [](int64_t) { return uint64_t{0}; });
      break;
  }
  return out;
}

Traffic expand(Collective c, uint64_t size, int32_t n, int32_t rank, const CollectiveOptions& o) {
  Traffic t;
  for (const Step& s : steps(c, size, n, rank, o)) {
    t += s.send ? Traffic{1, s.bytes, 0, 0} : Traffic{0, 0, 1, s.bytes};
  }
  return t;
}

std::string_view algorithm_name(Collective c) noexcept {
  switch (c) {
    case Collective::kAllReduce:
    case Collective::kReduceScatter:
    case Collective::kReduceScatterBlock:
    case Collective::kAllGather:
      return "ring";
    case Collective::kAllToAll:
      return "pairwise";
    case Collective::kBroadcast:
    case Collective::kScatter:
      return "flat tree from the root";
    case Collective::kReduce:
    case Collective::kGather:
      return "flat tree to the root";
    case Collective::kBarrier:
      return "flat tree to the root and back";
  }
  return "?";
}

}  // namespace dlcnet::trace::chakra
