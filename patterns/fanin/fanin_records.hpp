// Each rank's per-message records of a fan-in run in the common schema (core/record.hpp), on
// its own clock: workers their sends (and the replies' arrivals), the server its arrivals (and
// the replies' posts), background ranks their sends. key = message index in the burst (-1 for
// background), opnum = round index in schedule() (background: sequence number).
#pragma once

#include <vector>

#include "core/record.hpp"
#include "patterns/fanin/fanin_spec.hpp"
#include "patterns/fanin/fanin_times.hpp"

namespace dlcnet::fanin {

void write_server_records(RecordWriter& w, const FaninSpec& spec, int workers,
                          const ServerTimes& t);
void write_worker_records(RecordWriter& w, const FaninSpec& spec, int rank,
                          const std::vector<WorkerRound>& t);
void write_background_records(RecordWriter& w, const FaninSpec& spec, int rank,
                              const BackgroundTimes& t);

}  // namespace dlcnet::fanin
