// Point-to-point messages across ranks: every COMM_SEND_NODE has its COMM_RECV_NODE on the
// peer (comm_src, comm_dst, comm_tag equal; the n-th send of a (src, dst, tag) meets the n-th
// receive), with the same comm_size; peers are ranks of the job; and each rank's bytes (its
// sends, and twice each collective's comm_size, the most any algorithm here moves) fit in 64
// bits.
#pragma once

#include <vector>

#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// Problems in `diag` naming the file, the node and the field.
void check_messages(const Job& job, Diagnostics& diag);

// A send and its receive as check_messages() pairs them: ranks, and the nodes' positions in
// their Rank::nodes.
struct MatchedMessage {
  int32_t sender = 0;
  uint32_t send_node = 0;
  int32_t receiver = 0;
  uint32_t recv_node = 0;
};
// Every pair check_messages() finds, by (comm_src, comm_dst, comm_tag), then in file order;
// what it reports as unmatched is left out.
std::vector<MatchedMessage> match_messages(const Job& job);

}  // namespace dlcnet::trace::chakra
