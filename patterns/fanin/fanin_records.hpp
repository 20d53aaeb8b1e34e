// Each rank's per-message records of a fan-in run in the common schema (core/record.hpp), on
// its own clock: workers their sends (and the replies' arrivals), the server its arrivals (and
// the replies' posts), background ranks their sends. key = message index in the burst (-1 for
// background), opnum = round index in schedule() (background: sequence number). The rounds are
// written as they complete (a rank killed later keeps them: the pattern's round callbacks,
// RoleContext), the background's when the run ends; `seq` numbers on across the calls.
#pragma once

#include <vector>

#include "core/record.hpp"
#include "patterns/fanin/fanin_spec.hpp"
#include "patterns/fanin/fanin_times.hpp"

namespace dlcnet::fanin {

// The server's round `round`: every worker's arrivals, then its replies' posts.
void write_server_round(RecordWriter& w, const FaninSpec& spec, int64_t round, const ServerRound& r,
                        uint64_t& seq);
// The server's background arrivals (ranks workers + 1 ...).
void write_server_background(RecordWriter& w, const FaninSpec& spec, int workers,
                             const ServerTimes& t, uint64_t& seq);
// A worker's round: its sends, then the replies' arrivals.
void write_worker_round(RecordWriter& w, const FaninSpec& spec, int rank, const WorkerRound& r,
                        uint64_t& seq);
void write_background_records(RecordWriter& w, const FaninSpec& spec, int rank,
                              const BackgroundTimes& t);

}  // namespace dlcnet::fanin
