// Point-to-point messages across ranks: every COMM_SEND_NODE has its COMM_RECV_NODE on the
// peer (comm_src, comm_dst, comm_tag equal; the n-th send of a (src, dst, tag) meets the n-th
// receive), with the same comm_size; peers are ranks of the job; and each rank's bytes (its
// sends, and twice each collective's comm_size, the most any algorithm here moves) fit in 64
// bits.
#pragma once

#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// Problems in `diag` naming the file, the node and the field.
void check_messages(const Job& job, Diagnostics& diag);

}  // namespace dlcnet::trace::chakra
