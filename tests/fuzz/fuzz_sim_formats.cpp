// libFuzzer target: the simulator formats dlcnet reads (dlc-compare, dlc-compare predict), each
// from one input: HPCC's fct.txt (also SimAI's), HPCC's flow.txt, SimAI's queue monitor CSV,
// HPCC's qlen.txt, the flow map written beside an exported flow.txt, and the model's queue.csv.
// The first byte picks the format (as fuzz_trace_file's picks the file name). GOAL text is
// only written by dlcnet (replay/goal_writer.hpp), never read: no parser to fuzz.
// What must hold: a value that keeps the reader's promises (flows in order of start, series in
// time order with finite lengths, ...) or an Error whose message starts with the file's name
// ("flow.txt:7: field size: ..." for a line; a file-wide problem such as a wrong flow count or
// a missing header names the file alone); no other exception, crash or sanitizer report.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "compare/queue_hpcc.hpp"
#include "compare/queue_model.hpp"
#include "compare/queue_series.hpp"
#include "compare/queue_simai.hpp"
#include "core/error.hpp"
#include "flows/flow_map.hpp"
#include "flows/hpcc_flow.hpp"
#include "model/hpcc_prediction.hpp"

namespace {

using dlcnet::compare::QueueSeries;

// A series as QueueSeries promises it: in time order, lengths finite and not negative, each
// point's largest length at least its length (up to rounding); from a simulator's monitor
// (`from_zero`), no time before zero either.
void check_series(const QueueSeries& s, bool from_zero) {
  for (size_t i = 0; i < s.points.size(); ++i) {
    const dlcnet::compare::QueueSample& p = s.points[i];
    if (!std::isfinite(p.t_s) || !std::isfinite(p.bytes) || !std::isfinite(p.max_bytes) ||
        p.bytes < 0 || p.max_bytes < p.bytes * (1 - 1e-9) || (from_zero && p.t_s < 0) ||
        (i > 0 && p.t_s < s.points[i - 1].t_s)) {
      __builtin_trap();
    }
  }
  (void)dlcnet::compare::queue_max(s);
  (void)s.port.name();
}

void read(int format, std::istream& in, const std::string& name) {
  switch (format) {
    case 0: {
      const auto records = dlcnet::read_fct_txt(in, name);
      size_t line = 0;
      for (const dlcnet::FctRecord& r : records) {
        if (r.line <= line) __builtin_trap();  // one record per line, in order
        line = r.line;
        (void)r.src();
        (void)r.dst();
      }
      break;
    }
    case 1: {
      const auto flows = dlcnet::read_flow_txt(in, name);
      double start = 0;
      for (const dlcnet::HpccFlow& f : flows) {
        if (!std::isfinite(f.start_s) || f.start_s < start) __builtin_trap();
        start = f.start_s;
      }
      (void)dlcnet::model::messages_from_flows(flows);
      break;
    }
    case 2:
      for (const QueueSeries& s : dlcnet::compare::read_simai_queue(in, name, -1))
        check_series(s, true);
      break;
    case 3:
      for (const QueueSeries& s : dlcnet::compare::read_simai_queue(in, name, 3)) {
        check_series(s, true);
      }
      break;
    case 4:
      for (const QueueSeries& s : dlcnet::compare::read_hpcc_qlen(in, name, 1e-7)) {
        check_series(s, true);
      }
      break;
    case 5: {
      const dlcnet::FlowMap map = dlcnet::read_flow_map(in, name);
      for (size_t i = 0; i < map.flows.size(); ++i) {
        if (map.flows[i].flow != i) __builtin_trap();
        if (i > 0 && map.flows[i].start_ns < map.flows[i - 1].start_ns) __builtin_trap();
      }
      break;
    }
    default:
      check_series(dlcnet::compare::read_model_queue(in, name), false);
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kNames[] = {"fct.txt",  "flow.txt",         "mon.csv",  "mon_q3.csv",
                                       "qlen.txt", "run.flow.txt.map", "queue.csv"};
  const int format = data[0] % 7;
  const std::string name = kNames[format];
  std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  try {
    read(format, in, name);
  } catch (const dlcnet::Error& e) {
    const std::string what = e.what();
    if (what.rfind(name + ":", 0) != 0) __builtin_trap();  // names its file first
  }
  return 0;
}
