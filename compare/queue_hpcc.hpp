// HPCC's queue monitor (alibaba-edu/High-Precision-Congestion-Control, third.cc's
// monitor_buffer, QLEN_MON_FILE): every sample interval (100 ns) the length of every switch
// egress port (all its queues) goes into that port's histogram of 1 KB bins (1 KB = 1000 B);
// every dump interval (100 ms) a block
//   time: <ns>
//   <switch id> <port> c0 c1 c2 ...
// where ci counts the samples in [i KB, (i+1) KB) since the monitor started: cumulative.
// The difference between two blocks is the histogram of that interval; each interval becomes a
// point at its start holding the interval's mean length (step), with the interval's top bin as
// its max_bytes. A bin stands for its middle ((i + 0.5) KB), bin 0 for an empty queue (most of
// its samples): the series is good to about 500 B. The first interval starts its sample count
// times the sample interval before the first block.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "compare/queue_series.hpp"

namespace dlcnet::compare {

inline constexpr double kHpccSampleS = 100e-9;  // third.cc's qlen_mon_interval

// One series per (switch, port), ordered. Throws Error naming the file, the line and the field
// on a malformed line, a port line before the first block, a block time going backwards, or a
// count below the previous block's (the counts are cumulative).
std::vector<QueueSeries> read_hpcc_qlen(std::istream& in, const std::string& file,
                                        double sample_s = kHpccSampleS);
std::vector<QueueSeries> read_hpcc_qlen(const std::string& path, double sample_s = kHpccSampleS);

}  // namespace dlcnet::compare
