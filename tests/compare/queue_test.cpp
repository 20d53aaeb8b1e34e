// Queue series: each format read back from hand-made files, malformed lines named by file,
// line and field, and the comparison's metrics on series whose answers are worked out by hand.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compare/queue_compare.hpp"
#include "compare/queue_fanin.hpp"
#include "compare/queue_hpcc.hpp"
#include "compare/queue_model.hpp"
#include "compare/queue_read.hpp"
#include "compare/queue_report.hpp"
#include "compare/queue_simai.hpp"
#include "core/error.hpp"

namespace dlcnet::compare {
namespace {

// The message of the Error `f` throws ("" if none).
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::vector<QueueSeries> simai(const std::string& text, int64_t queue = -1) {
  std::istringstream in(text);
  return read_simai_queue(in, "mon.csv", queue);
}

std::vector<QueueSeries> hpcc(const std::string& text) {
  std::istringstream in(text);
  return read_hpcc_qlen(in, "qlen.txt");
}

// SimAI writes "%lu, %u, %u, %u, %u, %lu": every queue of a port whose length changed.
const char* kSimai =
    "time, sw_id, port_id, q_id, q_len, port_len\n"
    "1000, 4, 1, 0, 0, 3000\n"
    "1000, 4, 1, 3, 3000, 3000\n"
    "1000, 4, 2, 3, 500, 500\n"
    "2000, 4, 1, 0, 1000, 9000\n"
    "2000, 4, 1, 3, 8000, 9000\n"
    "3000, 4, 1, 0, 0, 0\n"
    "3000, 4, 1, 3, 0, 0\n";

TEST(CompareQueue, SimaiPortsAndQueues) {
  const std::vector<QueueSeries> s = simai(kSimai);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].port.name(), "4:1");
  EXPECT_EQ(s[0].format, "simai");
  ASSERT_EQ(s[0].points.size(), 3u);  // one point per time, the port's length
  EXPECT_DOUBLE_EQ(s[0].points[0].t_s, 1e-6);
  EXPECT_DOUBLE_EQ(s[0].points[1].bytes, 9000);
  EXPECT_DOUBLE_EQ(s[0].points[2].bytes, 0);
  EXPECT_EQ(s[1].port.name(), "4:2");
  // The length holds between rows (a row only when it changed).
  EXPECT_DOUBLE_EQ(queue_at(s[0], 1.5e-6), 3000);
  EXPECT_DOUBLE_EQ(queue_at(s[0], 0.5e-6), 0);  // before the first row: empty
  EXPECT_DOUBLE_EQ(queue_at(s[1], 1.0), 500);
  // One queue of each port: q 3.
  const std::vector<QueueSeries> q = simai(kSimai, 3);
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q[0].port.name(), "4:1:3");
  EXPECT_DOUBLE_EQ(q[0].points[1].bytes, 8000);
}

TEST(CompareQueue, SimaiMalformedNamesFileLineField) {
  const std::string h = "time, sw_id, port_id, q_id, q_len, port_len\n";
  EXPECT_EQ(error_of([&] { simai(h + "1000, 4, 1, 0, 12x, 3000\n"); }),
            "mon.csv:2: field q_len: \"12x\" is not a whole number");
  EXPECT_EQ(error_of([&] { simai(h + "1000, 4, 1, 0, 12\n"); }),
            "mon.csv:2: field port_len: missing");
  EXPECT_EQ(error_of([&] { simai(h + "1000, 4, , 0, 12, 12\n"); }),
            "mon.csv:2: field port_id: missing");
  EXPECT_NE(
      error_of([&] { simai(h + "1000, 4, 1, 0, 12, 12, 7\n"); }).find("mon.csv:2: more fields"),
      std::string::npos);
  EXPECT_EQ(error_of([&] { simai(h + "2000, 4, 1, 0, 1, 1\n1000, 4, 1, 0, 1, 1\n"); }),
            "mon.csv:3: field time: 1000 is before the previous row's 2000");
  EXPECT_EQ(
      error_of([&] { simai(h + "1000, 4, 1, 0, 1, 1\n1000, 4, 1, 1, 1, 2\n"); }),
      "mon.csv:3: field port_len: 2 differs from 1 on the port's other rows of the same time");
  EXPECT_NE(error_of([&] { simai("time,node,port\n"); }).find("mon.csv:1: not SimAI's"),
            std::string::npos);
}

// Two blocks 100 us apart of 100 ns samples: 1000 samples per block and port.
const char* kHpcc =
    "time: 2000100000\n"
    "4 1 1000\n"
    "4 2 500 0 250 250\n"
    "time: 2000200000\n"
    "4 1 1500 0 0 0 0 500\n"
    "4 2 500 0 250 1250\n";

TEST(CompareQueue, HpccHistogramsBecomeIntervalMeans) {
  const std::vector<QueueSeries> s = hpcc(kHpcc);
  ASSERT_EQ(s.size(), 2u);
  // 4:1: first interval all in bin 0 (empty), from 1000 x 100 ns = 100 us before the block;
  // second: 500 samples in bin 0, 500 in bin 5 (5.5 KB): mean 2750 B, top 5500 B.
  ASSERT_EQ(s[0].points.size(), 2u);
  EXPECT_NEAR(s[0].points[0].t_s, 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(s[0].points[0].bytes, 0);
  EXPECT_NEAR(s[0].points[1].t_s, 2.0001, 1e-12);
  EXPECT_DOUBLE_EQ(s[0].points[1].bytes, 2750);
  EXPECT_DOUBLE_EQ(s[0].points[1].max_bytes, 5500);
  EXPECT_DOUBLE_EQ(queue_peak(s[0], 2.00015, 2.00015), 5500);
  // 4:2: first 500 x 0 + 250 x 2500 + 250 x 3500 over 1000 = 1500; second 1000 in bin 3.
  EXPECT_DOUBLE_EQ(s[1].points[0].bytes, 1500);
  EXPECT_DOUBLE_EQ(s[1].points[0].max_bytes, 3500);
  EXPECT_DOUBLE_EQ(s[1].points[1].bytes, 3500);
  // The default port: the largest peak (4:1's 5.5 KB), said in the note.
  std::string note;
  const QueueSeries pick = select_queue_port(s, std::nullopt, "qlen.txt", &note);
  EXPECT_EQ(pick.port.name(), "4:1");
  EXPECT_EQ(note,
            "qlen.txt: port 4:1, the largest peak of its 2 ports (--port SW:PORT to choose "
            "another)");
  EXPECT_EQ(select_queue_port(s, parse_queue_port("4:2"), "qlen.txt", &note).port.name(), "4:2");
  EXPECT_EQ(error_of([&] { select_queue_port(s, parse_queue_port("5:1"), "qlen.txt", nullptr); }),
            "qlen.txt: no port 5:1 (it has 4:1, 4:2)");
}

TEST(CompareQueue, HpccMalformedNamesFileLineField) {
  EXPECT_EQ(error_of([&] { hpcc("4 1 10\n"); }),
            "qlen.txt:1: a port's line before the first \"time:\" line");
  EXPECT_EQ(error_of([&] { hpcc("time: 12a\n"); }),
            "qlen.txt:1: field time: \"12a\" is not a whole number");
  EXPECT_EQ(error_of([&] { hpcc("time: 100\n4 1 10 5\ntime: 200\n4 1 12 4\n"); }),
            "qlen.txt:4: field c1: 4 is below the previous block's 5 (the counts are cumulative)");
  EXPECT_EQ(error_of([&] { hpcc("time: 100\n4 1 10 5\ntime: 200\n4 1 12\n"); }),
            "qlen.txt:4: field c1: missing: the counts are cumulative and the previous block had "
            "2 bins");
  EXPECT_EQ(error_of([&] { hpcc("time: 200\n4 1 1\ntime: 100\n"); }),
            "qlen.txt:3: field time: 100 is before the previous block's 200");
  EXPECT_EQ(error_of([&] { hpcc("time: 100\n4 x 1\n"); }),
            "qlen.txt:2: field port: \"x\" is not a whole number");
}

TEST(CompareQueue, ModelQueueIsLinear) {
  std::istringstream in("time_s,bytes\n0,0\n1,2000\n2,0\n");
  const QueueSeries s = read_model_queue(in, "q.csv");
  EXPECT_EQ(s.shape, QueueShape::linear);
  EXPECT_DOUBLE_EQ(queue_at(s, 0.25), 500);
  EXPECT_DOUBLE_EQ(queue_at(s, 1.5), 1000);
  EXPECT_DOUBLE_EQ(queue_peak(s, 0.25, 0.75), 1500);  // the value at the window's end
  EXPECT_DOUBLE_EQ(queue_peak(s, 0.5, 1.5), 2000);    // the corner inside
  std::istringstream bad("time_s,bytes\n0,0\n1,x\n");
  EXPECT_EQ(error_of([&] { read_model_queue(bad, "q.csv"); }),
            "q.csv:3: field bytes: \"x\" is not a number");
  std::istringstream back("time_s,bytes\n1,0\n0.5,1\n");
  EXPECT_NE(error_of([&] { read_model_queue(back, "q.csv"); }).find("q.csv:3: field time_s:"),
            std::string::npos);
  std::istringstream nohead("0,0\n");
  EXPECT_EQ(error_of([&] { read_model_queue(nohead, "q.csv"); }),
            "q.csv:1: the model's queue starts with the header \"time_s,bytes\"");
}

nlohmann::json fanin_doc() {
  return {
      {"flow_origin_s", 100.0},
      {"iterations",
       {{{"kind", "solo"}, {"iteration", 0}, {"first_post_s", 100.0}, {"last_arrival_s", 100.5}},
        {{"kind", "incast"},
         {"iteration", 1},
         {"first_post_s", 101.0},
         {"last_arrival_s", 101.5}}}},
      {"qdisc",
       {{"summary", nlohmann::json::object()},
        {"series",
         {{"t_s", {100.0, 100.2, 101.2, 102.0}}, {"backlog_bytes", {0, 1000, 3000, 0}}}}}}};
}

TEST(CompareQueue, FaninReportSeriesRoundsOrigin) {
  const FaninQueue q = fanin_queue(fanin_doc(), "fan.json");
  ASSERT_EQ(q.series.points.size(), 4u);
  EXPECT_EQ(q.series.shape, QueueShape::step);
  EXPECT_DOUBLE_EQ(queue_at(q.series, 101.3), 3000);
  ASSERT_EQ(q.rounds.size(), 2u);
  EXPECT_EQ(q.rounds[1].kind, "incast");
  EXPECT_DOUBLE_EQ(q.rounds[1].last_arrival_s, 101.5);
  EXPECT_DOUBLE_EQ(q.origin_s, 100.0);
  EXPECT_EQ(q.origin_from, "flow_origin_s");
  nlohmann::json old = fanin_doc();
  old.erase("flow_origin_s");
  EXPECT_EQ(fanin_queue(old, "fan.json").origin_from, "first round");
  nlohmann::json bad = fanin_doc();
  bad["qdisc"]["series"]["backlog_bytes"][2] = "many";
  EXPECT_EQ(error_of([&] { fanin_queue(bad, "fan.json"); }),
            "fan.json: qdisc.series.backlog_bytes[2]: \"many\" is not a number");
  nlohmann::json none = fanin_doc();
  none.erase("qdisc");
  EXPECT_NE(error_of([&] { fanin_queue(none, "fan.json"); }).find("fan.json: no \"qdisc\""),
            std::string::npos);
  nlohmann::json short_t = fanin_doc();
  short_t["qdisc"]["series"]["t_s"].erase(3);
  EXPECT_EQ(error_of([&] { fanin_queue(short_t, "fan.json"); }),
            "fan.json: qdisc.series: 3 t_s against 4 backlog_bytes");
  // An iteration past int64 (undefined as a conversion: UBSan's report before the fix).
  for (double it : {1e300, -1e19, 1.5}) {
    nlohmann::json huge = fanin_doc();
    huge["iterations"][1]["iteration"] = it;
    EXPECT_NE(error_of([&] {
                fanin_queue(huge, "fan.json");
              }).find("fan.json: iterations[1].iteration: "),
              std::string::npos)
        << it;
  }
}

// Measured: 1000 B from 10 s to 12 s (samples). Predicted on its own axis: a triangle 0 -> 2000
// -> 0 over [0, 2] s, offset 10 s. On a 0.5 s grid (10, 10.5, 11, 11.5, 12): measured 1000 each,
// predicted 0, 1000, 2000, 1000, 0: means 1000 and 800 (-20%), mean |diff| (1000 + 0 + 1000 + 0
// + 1000) / 5 = 600, area ratio 0.8; peaks 1000 (at 10) and 2000 (at 11): +100%.
TEST(CompareQueue, MetricsOnKnownSeries) {
  QueueSeries m;
  m.file = "m";
  m.points = {{10, 1000, 1000}, {11, 1000, 1000}, {12, 1000, 1000}};
  QueueSeries p;
  p.file = "p";
  p.shape = QueueShape::linear;
  p.points = {{0, 0, 0}, {1, 2000, 2000}, {2, 0, 0}};
  const std::vector<QueueRound> rounds = {{"incast", 1, 10.5, 11.5}, {"incast", 2, 11.5, 12}};
  const QueueComparison c = compare_queues(m, p, rounds, 10, "--offset-s", 0.5);
  ASSERT_EQ(c.grid_t.size(), 5u);
  EXPECT_DOUBLE_EQ(c.measured_mean, 1000);
  EXPECT_DOUBLE_EQ(c.predicted_mean, 800);
  EXPECT_DOUBLE_EQ(c.mean_error, -0.2);
  EXPECT_DOUBLE_EQ(c.mean_abs_diff, 600);
  EXPECT_DOUBLE_EQ(c.area_ratio, 0.8);
  EXPECT_DOUBLE_EQ(c.measured_peak.max_bytes, 1000);
  EXPECT_DOUBLE_EQ(c.predicted_peak.max_bytes, 2000);
  EXPECT_DOUBLE_EQ(c.predicted_peak.t_s, 11);
  EXPECT_DOUBLE_EQ(c.peak_error, 1.0);
  ASSERT_EQ(c.rounds.size(), 2u);
  EXPECT_DOUBLE_EQ(c.rounds[0].measured_start, 1000);
  EXPECT_DOUBLE_EQ(c.rounds[0].predicted_start, 1000);
  EXPECT_DOUBLE_EQ(c.rounds[0].predicted_peak, 2000);
  EXPECT_DOUBLE_EQ(c.rounds[1].predicted_start, 1000);
  EXPECT_DOUBLE_EQ(c.rounds[1].predicted_peak, 1000);  // falling from 11.5 on
  EXPECT_DOUBLE_EQ(c.rounds[1].peak_error(), 0);
  // The JSON and the CSV on flow.txt's axis (minus the offset).
  const nlohmann::json j = queue_comparison_json(c);
  EXPECT_EQ(j["schema"], "dlcnet.compare-queue/1");
  EXPECT_DOUBLE_EQ(j["peak"]["predicted_t_s"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["rounds"][0]["start_s"].get<double>(), 0.5);
  EXPECT_EQ(j["alignment"]["from"], "--offset-s");
  std::ostringstream csv;
  write_queue_csv(csv, c);
  EXPECT_EQ(
      csv.str(),
      "t_s,measured_bytes,predicted_bytes\n0.000000000,1000.0,0.0\n0.500000000,1000.0,1000.0\n"
      "1.000000000,1000.0,2000.0\n1.500000000,1000.0,1000.0\n2.000000000,1000.0,0.0\n");
  // Scaled by 10, the prediction's peak is 20x the measured one: the comparison says so.
  for (QueueSample& x : p.points) x.bytes = x.max_bytes = 10 * x.bytes;
  EXPECT_DOUBLE_EQ(compare_queues(m, p, {}, 10, "--offset-s", 0.5).peak_error, 19.0);
  QueueSeries one;
  one.file = "one";
  one.points = {{0, 1, 1}};
  EXPECT_EQ(error_of([&] { compare_queues(one, p, {}, 0, "none", 0.5); }),
            "one: 1 samples: nothing to compare");
}

TEST(CompareQueue, SniffAndPortSpec) {
  const std::string dir = ::testing::TempDir();
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + name) << text;
    return dir + name;
  };
  auto sniff = [](const std::string& path) {
    InputFile in(path, "a queue series");
    return sniff_queue_format(in);
  };
  EXPECT_EQ(sniff(write("a.json", "{\"qdisc\": {}}")), "fanin");
  EXPECT_EQ(sniff(write("b.csv", "time_s,bytes\n0,0\n")), "model");
  EXPECT_EQ(sniff(write("c.csv", kSimai)), "simai");
  EXPECT_EQ(sniff(write("d.txt", kHpcc)), "hpcc");
  EXPECT_NE(error_of([&] { sniff(write("e.txt", "hello\n")); }).find("--format"),
            std::string::npos);
  // The default port of a file, read through the sniffer.
  QueueSource src;
  const QueueInput in = read_queue_input(dir + "c.csv", src);
  EXPECT_EQ(in.series.port.name(), "4:1");
  EXPECT_NE(in.note.find("the largest peak of its 2 ports"), std::string::npos);
  EXPECT_EQ(parse_queue_port("3:1").name(), "3:1");
  EXPECT_EQ(parse_queue_port("3:1:7").queue, 7);
  EXPECT_NE(error_of([] { parse_queue_port("3"); }).find("--port 3:"), std::string::npos);
  EXPECT_NE(error_of([] { parse_queue_port("3:x"); }).find("--port 3:x"), std::string::npos);
  EXPECT_NE(error_of([] { parse_queue_port("1:2:3:4"); }).find("--port"), std::string::npos);
}

}  // namespace
}  // namespace dlcnet::compare
