// One queue series from any of the formats dlc-compare reads (compare/queue_*.hpp): the format
// told (--format) or sniffed from the file's start, and for a source with many switch ports the
// one asked for (--port SW:PORT[:Q]) or the one with the largest peak.
#pragma once

#include <optional>
#include <string>

#include "compare/queue_fanin.hpp"
#include "compare/queue_series.hpp"
#include "core/input_file.hpp"

namespace dlcnet::compare {

// "fanin" (a JSON document), "model" (the header time_s,bytes), "simai" (the header time,
// sw_id, ...), "hpcc" (a first line "time: <ns>"), from the first line read ahead (nothing is
// consumed: the reader then reads `in` from its start); throws Error naming the file otherwise.
std::string sniff_queue_format(InputFile& in);

// "SW:PORT" or "SW:PORT:Q" (whole numbers); throws Error naming --port.
QueuePort parse_queue_port(const std::string& spec);

// The series of `want`, or without it the one with the largest peak (ties: the first in
// (switch, port) order); `note` says which and among how many. Throws Error naming the file
// when `want` is not among them or there is none.
QueueSeries select_queue_port(std::vector<QueueSeries> all, const std::optional<QueuePort>& want,
                              const std::string& file, std::string* note);

struct QueueSource {
  std::string format;  // "" to sniff
  std::optional<QueuePort> port;
  double hpcc_sample_s = 100e-9;
};

struct QueueInput {
  QueueSeries series;
  std::optional<FaninQueue> fanin;  // a fan-in report's rounds and time zero
  std::string note;                 // which port was chosen, for the console
};

QueueInput read_queue_input(const std::string& path, const QueueSource& src);

}  // namespace dlcnet::compare
