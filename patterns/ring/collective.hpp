// A collective as nccl-tests plugs one into its harness: a few pure functions on one table.
// From the swept size: the element layout; from it, each rank's plan (the steps of messages);
// the inputs of an iteration and the check of its result, both exact in float32; the factor
// from algorithm bandwidth to bus bandwidth. One file per collective (allreduce.cpp, ...);
// the engine (ring_engine.hpp) runs any plan.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "patterns/ring/ring_spec.hpp"

namespace dlcnet::ring {

// How one size's float32 elements split among N ranks: N chunks, the first count % N of them
// one element longer, so sizes not divisible by N (or below N elements) work.
struct Layout {
  int ranks = 1;
  uint64_t count = 0;  // elements the size stands for (its bytes / 4, as nccl-tests counts)
  std::vector<uint64_t> chunk_off, chunk_count;
  uint64_t max_chunk = 0;
  int root = 0;           // a rooted collective's root (RingSpec::root)
  bool in_place = false;  // RingSpec::in_place
};
Layout even_chunks(uint64_t count, int ranks);
// The layout of a size whose vector every rank holds whole: bytes / 4 elements, even chunks.
Layout whole_vector(uint64_t bytes, int ranks);
// nccl-tests' factor of the collectives that move (N-1)/N of the vector through each rank:
// reduce-scatter, all-gather, all-to-all.
double one_pass_factor(int ranks);
// nccl-tests' factor 1 of the collectives whose every byte crosses one link: broadcast,
// reduce, sendrecv.
double unit_factor(int ranks);
// Every element of the vector is this rank's input (ring_data.hpp's values).
void fill_whole(float* in, const Layout& l, int rank, uint32_t t);
// The test switch's element when every rank contributes every element: the middle one.
uint64_t middle_element(const Layout& l, int rank);
// The layout of a collective whose every message is the whole vector (broadcast, sendrecv).
Layout whole_message(uint64_t bytes, int ranks);
// Only the root's input is the vector (ring_data.hpp's values); the others' stay unfilled.
void fill_at_root(float* in, const Layout& l, int rank, uint32_t t);
// Rank r's input is its own chunk r (all-gather, gather).
void fill_own_chunk(float* in, const Layout& l, int rank, uint32_t t);
// The first element of the rank's own chunk, or kNoElement when it is empty.
uint64_t own_chunk_start(const Layout& l, int rank);
// Elements of a gathered vector (chunk c holds rank c's input) that are wrong.
uint64_t wrong_gathered(const float* out, const Layout& l, uint32_t t);

// A run of elements in one of a rank's three buffers: its input, its output, and the staging
// slots a reduce-scatter receives partial sums into.
enum class Buf : uint8_t { in, out, stage };
struct Piece {
  Buf buf = Buf::in;
  uint64_t off = 0, count = 0;  // elements
};

// One step of one rank: at most one message out and one in. The engine posts the send, waits
// for the receive, then reduces; a step whose message has no elements moves nothing.
struct Step {
  const char* phase = "";  // "reduce-scatter", "all-gather", "exchange"
  int to = -1, from = -1;  // peers; -1: none
  Piece send;              // what goes to `to`
  Piece remote;            // where `to` puts it (its `recv` of this step): a write's target
  Piece recv;              // where the message from `from` lands
  // out[recv's chunk] = in[recv's chunk] + recv: a staging slot, or the output itself (recv in
  // Buf::out at reduce_off: the sum is made in place, out += in, one pass less over memory).
  bool reduce = false;
  uint64_t reduce_off = 0;
};

struct Plan {
  std::vector<Piece> copies;  // in -> out at the same offsets, before the first step
  std::vector<Step> steps;
  Buf result = Buf::out;  // where the rank's result is checked (in: an in-place root's input)
};

// Chunk c of the layout in buffer b.
Piece chunk_piece(const Layout& l, Buf b, int c);
// Elements the input and output buffers hold for `p`: the layout's count, or more where the
// plan's messages reach beyond it (a barrier's tokens, with a count of 0).
uint64_t vector_elems(const Layout& l, const Plan& p);

struct CollectiveDef {
  const char* name;  // --collective NAME, the JSON's "collective"
  // nccl-tests' bus bandwidth factor: busbw = algbw x factor.
  double (*bus_factor)(int ranks);
  Layout (*layout)(uint64_t bytes, int ranks);
  Plan (*plan)(const Layout& l, int rank);  // without `remote` (plan_for() adds it)
  // Iteration t's input of `rank` (exact small integers, so every sum is exact in float32).
  void (*fill)(float* in, const Layout& l, int rank, uint32_t t);
  // Elements of `rank`'s output that differ from iteration t's exact result.
  uint64_t (*check)(const float* out, const Layout& l, int rank, uint32_t t);
  // The input element the test switch perturbs on its rank (kNoElement: none exists).
  uint64_t (*corrupt_index)(const Layout& l, int rank);
  // One set of output and staging buffers serves every iteration when no message of iteration
  // t+1 can reach a rank before it has read the last of iteration t's: every such message
  // carries that rank's own t+1 input, or follows one that does around the ring. Otherwise
  // iterations alternate between two sets (ring_memory.hpp), since the next iteration's
  // receives are posted, and a write may land, while this one still runs.
  bool one_buffer_set = false;
  bool rooted = false;  // takes --root (Layout::root)
  // --op send only: a rank that only sends (a broadcast's root, a gather's other ranks) is
  // held back by no peer, and its writes of iteration t+2 would land in a buffer its peer has
  // not checked for t yet.
  bool send_only = false;
  bool all_peers = false;  // every rank talks to every other (else ring neighbours)
  // Moves no payload (a barrier): one size of 0 B, no -b, -e, -f, -i or -s.
  bool sizeless = false;
  bool in_place = false;  // takes --in-place (Layout::in_place)
};
inline constexpr uint64_t kNoElement = ~uint64_t{0};

// The table (collectives.hpp): the definition named `name`, or null.
const CollectiveDef* find_collective(std::string_view name) noexcept;
// Throws Error naming the known collectives.
const CollectiveDef& collective(std::string_view name);
std::vector<std::string> collective_names();
// `def`'s layout of `bytes` over `ranks`, with the root of a rooted collective.
Layout layout_of(const CollectiveDef& def, uint64_t bytes, int ranks, int root,
                 bool in_place = false);

// `rank`'s plan with every send's `remote` filled from the receiving peer's plan.
Plan plan_for(const CollectiveDef& def, const Layout& l, int rank);

}  // namespace dlcnet::ring
