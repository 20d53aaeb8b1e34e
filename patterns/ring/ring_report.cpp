#include "patterns/ring/ring_report.hpp"

#include "core/stats_json.hpp"

namespace dlcnet::ring {
namespace {

constexpr size_t kWidth = 9;

const std::vector<Column> kColumns = {
    {"size", "B"},     {"count", "elements"}, {"type", ""},   {"redop", ""},      {"time", "us"},
    {"algbw", "GB/s"}, {"busbw", "GB/s"},     {"#wrong", ""}, {"p99 time", "us"}, {"cv", ""}};

double avg_busbw(const std::vector<Row>& rows) {
  double sum = 0;
  for (const Row& r : rows) sum += r.busbw;
  return rows.empty() ? 0 : sum / static_cast<double>(rows.size());
}

uint64_t wrong_total(const std::vector<Row>& rows) {
  uint64_t w = 0;
  for (const Row& r : rows) w += r.wrong;
  return w;
}

std::string wrong_cell(const Row& r) {
  return r.checked ? std::to_string(r.wrong) : "N/A";
}

}  // namespace

RingTable::RingTable(std::ostream& out) : out_(out), table_(kColumns, kWidth) {}

void RingTable::header() {
  table_.print_header(out_);
  out_.flush();
}

void RingTable::row(const Row& r) {
  table_.print_row(out_,
                   {std::to_string(r.bytes), std::to_string(r.count), "float", "sum",
                    fixed(r.time_s * 1e6, 2), fixed(r.algbw / 1e9, 3), fixed(r.busbw / 1e9, 3),
                    wrong_cell(r), fixed(r.iteration_s.p99 * 1e6, 2), fixed(r.cv, 3)});
  out_.flush();
}

void print_footer(std::ostream& out, const std::vector<Row>& rows) {
  const uint64_t w = wrong_total(rows);
  bool checked = false;
  for (const Row& r : rows) checked = checked || r.checked > 0;
  out << "# Out of bounds values : "
      << (checked ? std::to_string(w) + (w == 0 ? " OK" : " FAILED")
                  : std::string("not checked (-c 0)"))
      << '\n';
  out << "# Avg bus bandwidth    : " << fixed(avg_busbw(rows) / 1e9, 3) << " GB/s\n";
}

void print_steps(std::ostream& out, const SizeResult& s) {
  out << "# steps of " << s.row.bytes << " B (one-way latency of every message, rank 0's clock; "
      << "span p50 " << fixed(s.span_s.p50 * 1e6, 1) << " us):\n";
  Table t({{"step", ""},
           {"phase", ""},
           {"p50", "us"},
           {"p99", "us"},
           {"slowest link", ""},
           {"its p50", "us"},
           {"bound", "us"}});
  for (const StepStat& st : s.steps) {
    const std::string link =
        st.slow_src < 0 ? "-" : std::to_string(st.slow_src) + "->" + std::to_string(st.slow_dst);
    t.add_row({std::to_string(st.step), st.phase, fixed(st.latency_s.p50 * 1e6, 1),
               fixed(st.latency_s.p99 * 1e6, 1), link, fixed(st.slow_p50_s * 1e6, 1),
               fixed(st.bound_s * 1e6, 1)});
  }
  t.print(out);
}

nlohmann::json size_json(const SizeResult& s) {
  const Row& r = s.row;
  nlohmann::json time = latency_summary_json(r.iteration_s);
  time["cv"] = r.cv;
  nlohmann::json steps = nlohmann::json::array();
  for (const StepStat& st : s.steps) {
    nlohmann::json slow = nullptr;
    if (st.slow_src >= 0) {
      slow = {{"src", st.slow_src}, {"dst", st.slow_dst}, {"p50_s", st.slow_p50_s}};
    }
    steps.push_back({{"step", st.step},
                     {"phase", st.phase},
                     {"latency_s", latency_summary_json(st.latency_s)},
                     {"slowest_link", slow},
                     {"clock_bound_s", st.bound_s}});
  }
  return {{"size_bytes", r.bytes},
          {"count", r.count},
          {"time_s", r.time_s},
          {"algbw_GBps", r.algbw / 1e9},
          {"busbw_GBps", r.busbw / 1e9},
          {"wrong", r.checked ? nlohmann::json(r.wrong) : nlohmann::json(nullptr)},
          {"checked_iterations", r.checked},
          {"iterations", r.iteration_s.count},
          {"time_dist_s", time},
          {"span_s", latency_summary_json(s.span_s)},
          {"span_clock_bound_s", s.span_bound_s},
          {"steps", steps}};
}

nlohmann::json ring_json(const RingSpec& spec, int ranks, const std::vector<SizeResult>& sizes) {
  std::vector<Row> rows;
  nlohmann::json list = nlohmann::json::array();
  for (const SizeResult& s : sizes) {
    rows.push_back(s.row);
    list.push_back(size_json(s));
  }
  return {
      {"schema", "dlcnet.ring/1"},
      {"collective", spec.collective},
      {"ranks", ranks},
      {"op", to_string(spec.op)},
      {"type", "float"},
      {"redop", "sum"},
      {"check", spec.check},
      {"segment_bytes", spec.segment_bytes},
      {"in_place", spec.in_place},
      {"warmup", spec.warmup},
      {"time_is",
       "per iteration: each rank's time from entering it to its result, averaged over ranks "
       "(nccl-tests); time_s is the mean over iterations"},
      {"busbw_factor", collective(spec.collective).bus_factor(ranks)},
      {"root", collective(spec.collective).rooted ? nlohmann::json(spec.root) : nlohmann::json()},
      {"sizes", list},
      {"wrong_total", wrong_total(rows)},
      {"avg_busbw_GBps", avg_busbw(rows) / 1e9}};
}

}  // namespace dlcnet::ring
