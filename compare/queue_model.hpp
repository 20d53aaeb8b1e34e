// The reference model's queue (`dlc-compare predict ... --queue queue.csv`): the bottleneck
// port's fluid queue at its corners, `time_s,bytes` after that header, linear in between; time
// zero is flow.txt's (the first post of the run that exported it).
#pragma once

#include <istream>
#include <string>

#include "compare/queue_series.hpp"

namespace dlcnet::compare {

// Throws Error naming the file, the line and the field on a malformed line, a missing header,
// a negative length or a time going backwards.
QueueSeries read_model_queue(std::istream& in, const std::string& file);
QueueSeries read_model_queue(const std::string& path);

}  // namespace dlcnet::compare
