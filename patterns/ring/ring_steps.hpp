// The two halves of a ring all-reduce, shared by allreduce, reducescatter and allgather: rank r
// sends to r+1 and receives from r-1 in every step.
//   reduce-scatter, step s = 0..N-2: send chunk r-s-1 (from the input at step 0, else the sum
//     made in step s-1), receive chunk r-s-2 into staging slot s, sum it with the input into
//     the output. After N-1 steps rank r holds chunk r fully reduced.
//   all-gather, step s = 0..N-2: send output chunk r-s, receive chunk r-s-1 into the output.
#pragma once

#include <vector>

#include "patterns/ring/collective.hpp"

namespace dlcnet::ring {

void add_reduce_scatter(std::vector<Step>& steps, const Layout& l, int rank);
void add_all_gather(std::vector<Step>& steps, const Layout& l, int rank);

// Element `g`'s chunk (the rank that owns it after a reduce-scatter).
int owner(const Layout& l, uint64_t g) noexcept;

}  // namespace dlcnet::ring
