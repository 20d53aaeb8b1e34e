// Matching the two sides of each message across the sender's and the receiver's files.
#pragma once

#include <span>

#include "trace/trace_channels.hpp"
#include "trace/trace_diagnostics.hpp"
#include "trace/trace_model.hpp"

namespace dlcnet::trace {

// Fills job.messages and every record's Record::message. Data messages pair a worker's record
// with the server's record of the same key, iteration and phase (the two files' opnums differ
// by the numbering offset, so opnums are not compared directly); set-up messages pair the k-th
// command sent from A to B with the k-th received by B from A. `channels[rank]` is the channel
// table of node `rank` (empty for absent nodes); Record::message must be kNone on entry.
// A record whose counterpart is missing although the peer's file is present is a warning; one
// whose peer's file is absent becomes a one-sided message (a note).
void match_messages(Job& job, std::span<const ChannelTable> channels, Diagnostics& diag);

}  // namespace dlcnet::trace
