#include "compare/queue_read.hpp"

#include <charconv>

#include "compare/queue_hpcc.hpp"
#include "compare/queue_model.hpp"
#include "compare/queue_simai.hpp"
#include "core/error.hpp"

namespace dlcnet::compare {

std::string sniff_queue_format(InputFile& in) {
  const std::string s = in.peek_first_line();
  if (!s.empty()) {
    if (s[0] == '{') return "fanin";
    if (s.rfind("time_s,bytes", 0) == 0) return "model";
    if (s.rfind("time:", 0) == 0) return "hpcc";
    if (s.rfind("time,", 0) == 0 && s.find("sw_id") != std::string::npos) return "simai";
  }
  throw Error(in.path() +
              ": not a queue series dlc-compare knows (a dlc-bench fanin report, the "
              "model's queue.csv, SimAI's queue monitor, HPCC's qlen.txt); --format says "
              "which it is");
}

QueuePort parse_queue_port(const std::string& spec) {
  QueuePort p;
  int64_t* fields[] = {&p.sw, &p.port, &p.queue};
  size_t pos = 0, n = 0;
  while (n < 3) {
    const size_t end = std::min(spec.find(':', pos), spec.size());
    int64_t v = -1;
    auto [q, ec] = std::from_chars(spec.data() + pos, spec.data() + end, v);
    if (ec != std::errc() || q != spec.data() + end || v < 0) break;
    *fields[n++] = v;
    if (end == spec.size()) {
      if (n >= 2) return p;
      break;
    }
    pos = end + 1;
  }
  throw Error("--port " + spec + ": SW:PORT or SW:PORT:QUEUE expected (whole numbers)");
}

QueueSeries select_queue_port(std::vector<QueueSeries> all, const std::optional<QueuePort>& want,
                              const std::string& file, std::string* note) {
  if (all.empty()) throw Error(file + ": no switch port in it");
  size_t pick = 0;
  if (want) {
    pick = all.size();
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i].port.sw == want->sw && all[i].port.port == want->port) pick = i;
    }
    if (pick == all.size()) {
      std::string names;
      for (const QueueSeries& s : all) names += (names.empty() ? "" : ", ") + s.port.name();
      throw Error(file + ": no port " + want->name() + " (it has " + names + ")");
    }
    if (note) *note = file + ": port " + all[pick].port.name() + " (--port)";
  } else {
    for (size_t i = 1; i < all.size(); ++i) {
      if (queue_max(all[i]).max_bytes > queue_max(all[pick]).max_bytes) pick = i;
    }
    if (note) {
      *note = file + ": port " + all[pick].port.name() + ", the largest peak of its " +
              std::to_string(all.size()) + " ports (--port SW:PORT to choose another)";
    }
  }
  return std::move(all[pick]);
}

QueueInput read_queue_input(const std::string& path, const QueueSource& src) {
  InputFile file(path, "a queue series");  // opened once: a pipe or a FIFO is read once
  const std::string format = src.format.empty() ? sniff_queue_format(file) : src.format;
  std::istream& stream = file.stream();
  QueueInput in;
  if (format == "fanin") {
    in.fanin = read_fanin_queue(file);
    in.series = in.fanin->series;
    if (in.fanin->origin_from == "first round") {
      in.note = path +
                ": no flow_origin_s (an older dlc-bench): time zero taken as the first "
                "post of its first listed round; solo rounds and background are not "
                "listed: if they ran, give --offset-s";
    }
  } else if (format == "model") {
    in.series = read_model_queue(stream, path);
  } else if (format == "simai") {
    in.series = select_queue_port(read_simai_queue(stream, path, src.port ? src.port->queue : -1),
                                  src.port, path, &in.note);
  } else if (format == "hpcc") {
    in.series = select_queue_port(read_hpcc_qlen(stream, path, src.hpcc_sample_s), src.port, path,
                                  &in.note);
  } else {
    throw Error("--format " + format + ": fanin, model, simai or hpcc");
  }
  file.check_read();
  if ((format == "fanin" || format == "model") && src.port) {
    throw Error("--port: " + path + " (" + format + ") has a single queue");
  }
  return in;
}

}  // namespace dlcnet::compare
