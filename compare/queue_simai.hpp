// SimAI's queue monitor (its ns-3 backend, QLEN_MON_FILE): a CSV with the header
//   time, sw_id, port_id, q_id, q_len, port_len
// then, every monitor interval, for each switch port whose length changed since the last
// interval, one row per queue of it: time in ns (simulated), the switch's node id, the port
// (1-based device index), the queue (priority), that queue's bytes and the whole port's bytes.
// A port's length holds between its rows (nothing is written while it is unchanged).
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "compare/queue_series.hpp"

namespace dlcnet::compare {

// One series per switch port (port_len), or with `queue` >= 0 one per port of that queue
// (q_len), ordered by (switch, port). Throws Error naming the file, the line and the field on
// a malformed row, a header that is not SimAI's, or a time going backwards.
std::vector<QueueSeries> read_simai_queue(std::istream& in, const std::string& file,
                                          int64_t queue = -1);
std::vector<QueueSeries> read_simai_queue(const std::string& path, int64_t queue = -1);

}  // namespace dlcnet::compare
