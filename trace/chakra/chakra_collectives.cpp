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

Traffic traffic(uint64_t sends, uint64_t send_bytes, uint64_t recvs, uint64_t recv_bytes) {
  return Traffic{sends, send_bytes, recvs, recv_bytes};
}

}  // namespace

Traffic& Traffic::operator+=(const Traffic& o) noexcept {
  sends = add_sat(sends, o.sends);
  send_bytes = add_sat(send_bytes, o.send_bytes);
  recvs = add_sat(recvs, o.recvs);
  recv_bytes = add_sat(recv_bytes, o.recv_bytes);
  return *this;
}

Traffic expand(Collective c, uint64_t size, int32_t n, int32_t rank, const CollectiveOptions& o) {
  if (n <= 1) return {};
  const auto peers = static_cast<uint64_t>(n - 1);
  const int64_t r = rank;
  // The whole buffer: under the per-rank reading, comm_size is one rank's piece of it.
  const bool per_rank = o.size_reading == SizeReading::kPerRank;
  const uint64_t whole = per_rank ? mul_sat(size, static_cast<uint64_t>(n)) : size;
  const Chunks chunk{whole, static_cast<uint64_t>(n)};
  // A per-rank piece: a chunk of the whole buffer, or comm_size itself.
  const auto piece = [&](int64_t i) { return per_rank ? size : chunk(i); };
  const bool root = rank == o.root;
  switch (c) {
    case Collective::kAllReduce:  // ring: reduce-scatter, then all-gather; comm_size the vector
      return traffic(2 * peers, 2 * size - Chunks{size, chunk.n}(r)-Chunks{size, chunk.n}(r + 1),
                     2 * peers, 2 * size - Chunks{size, chunk.n}(r - 1) - Chunks{size, chunk.n}(r));
    case Collective::kReduceScatter:
    case Collective::kReduceScatterBlock:  // ring: every chunk but its own, then its own summed
      return traffic(peers, whole - chunk(r), peers, whole - chunk(r - 1));
    case Collective::kAllGather:  // ring: its own chunk first, every chunk but the next's
      return traffic(peers, whole - chunk(r + 1), peers, whole - chunk(r));
    case Collective::kAllToAll:  // pairwise: block j of its buffer to rank j
      return traffic(peers, size - Chunks{size, chunk.n}(r), peers,
                     mul_sat(peers, Chunks{size, chunk.n}(r)));
    case Collective::kBroadcast:  // flat: the root sends the buffer to every rank
      return root ? traffic(peers, mul_sat(peers, size), 0, 0) : traffic(0, 0, 1, size);
    case Collective::kReduce:  // flat: every rank sends its buffer to the root
      return root ? traffic(0, 0, peers, mul_sat(peers, size)) : traffic(1, size, 0, 0);
    case Collective::kGather:  // flat: every rank sends its piece to the root
      return root ? traffic(0, 0, peers, whole - piece(r)) : traffic(1, piece(r), 0, 0);
    case Collective::kScatter:  // flat: the root sends every rank its piece
      return root ? traffic(peers, whole - piece(r), 0, 0) : traffic(0, 0, 1, piece(r));
    case Collective::kBarrier:  // flat: zero-byte messages to the root, then back
      return root ? traffic(peers, 0, peers, 0) : traffic(1, 0, 1, 0);
  }
  return {};
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
