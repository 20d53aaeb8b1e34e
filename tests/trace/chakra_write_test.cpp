// Writing Chakra ET files: the writer on a job built in memory (every field read back), and
// `dlc-trace convert --to chakra` end to end: a SketchDLC job (tests/data/trace/basic and the
// example job), a native and a synthetic one read back with the Chakra loader (the same
// messages per pair with the same sizes in order, every dependency and think time, validate
// clean, stats' totals those of the original), the real traces of ../shared/data/chakra
// written again node for node, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"
#include "trace/chakra/chakra_loader.hpp"
#include "trace/chakra/chakra_match.hpp"
#include "trace/chakra/chakra_reader.hpp"
#include "trace/chakra/chakra_writer.hpp"

namespace dlcnet::trace::chakra {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;
using trace::test::CliRun;
using trace::test::TempDir;

CliRun run(const std::string& args) {
  return trace::test::run_shell(std::string(DLC_TRACE_BIN) + " " + args);
}

void expect_same_node(const Node& a, const Node& b, const std::string& where) {
  EXPECT_EQ(a.id, b.id) << where;
  EXPECT_EQ(a.name(), b.name()) << where;
  EXPECT_EQ(a.type, b.type) << where;
  EXPECT_EQ(a.ctrl_deps(), b.ctrl_deps()) << where;
  EXPECT_EQ(a.data_deps(), b.data_deps()) << where;
  EXPECT_EQ(a.start_us, b.start_us) << where;
  EXPECT_EQ(a.duration_us, b.duration_us) << where;
  EXPECT_EQ(a.src, b.src) << where;
  EXPECT_EQ(a.dst, b.dst) << where;
  EXPECT_EQ(a.tag, b.tag) << where;
  EXPECT_EQ(a.size, b.size) << where;
  EXPECT_EQ(a.collective, b.collective) << where;
  EXPECT_EQ(a.pg_name(), b.pg_name()) << where;
}

void expect_same_job(const Job& a, const Job& b, const std::string& where) {
  ASSERT_EQ(a.world, b.world) << where;
  ASSERT_EQ(a.ranks.size(), b.ranks.size()) << where;
  for (size_t r = 0; r < a.ranks.size(); ++r) {
    ASSERT_EQ(a.ranks[r].nodes.size(), b.ranks[r].nodes.size()) << where << " rank " << r;
    for (size_t i = 0; i < a.ranks[r].nodes.size(); ++i) {
      expect_same_node(a.ranks[r].nodes[i], b.ranks[r].nodes[i],
                       where + " rank " + std::to_string(r) + " node #" + std::to_string(i));
    }
  }
}

Job load_clean(const std::string& dir) {
  LoadResult res = load_job(std::vector<std::string>{dir});
  EXPECT_TRUE(res.ok()) << dir << ":\n" << res.diagnostics.report();
  return std::move(res.job);
}

Node node(Rank& r, uint64_t id, NodeType type) {
  Node n;
  n.id = id;
  n.type = type;
  r.store.set_name(n, "n" + std::to_string(id));
  return n;
}

TEST(ChakraWrite, WriterKeepsEveryField) {
  Rank r;
  r.rank = 1;
  Node c = node(r, 0, NodeType::kComp);
  c.start_us = 1'700'000'000'000'000;
  c.duration_us = 7;
  Node s = node(r, 1, NodeType::kCommSend);
  s.src = 1;
  s.dst = 0;
  s.tag = int64_t{1} << 40;  // past int32: written as int64_val
  s.size = uint64_t{1} << 33;
  r.store.set_deps(s, {}, std::vector<uint64_t>{0});
  Node v = node(r, 2, NodeType::kCommRecv);
  v.src = 2;
  v.dst = 1;
  v.tag = 3;
  v.size = 0;
  r.store.set_deps(v, std::vector<uint64_t>{0}, std::vector<uint64_t>{1});
  Node g = node(r, 3, NodeType::kCommColl);
  g.collective = Collective::kReduceScatterBlock;
  g.size = 1 << 20;
  r.store.set_pg_name(g, "tp0");
  r.store.set_deps(g, {}, std::vector<uint64_t>{1, 2});
  Node b = node(r, 4, NodeType::kCommColl);
  b.collective = Collective::kBarrier;
  Node m = node(r, 5, NodeType::kMemLoad);
  m.duration_us = 3;
  r.nodes = {c, s, v, g, b, m};
  for (uint32_t i = 0; i < r.nodes.size(); ++i) r.nodes[i].index = i;
  Rank back;
  Diagnostics diag;
  ASSERT_TRUE(read_rank(rank_bytes(r), "x.1.et", 1, back, diag)) << diag.report();
  EXPECT_EQ(back.version, "0.0.4");
  ASSERT_EQ(back.nodes.size(), r.nodes.size());
  for (size_t i = 0; i < r.nodes.size(); ++i) {
    expect_same_node(back.nodes[i], r.nodes[i], "node " + std::to_string(i));
  }
}

// A DLC job's records in the Chakra job: per rank (= the node's rank: workers, then servers)
// the k-th COMM_SEND_NODE/COMM_RECV_NODE is the k-th record of the node's file.
struct Sides {
  const trace::Node* dlc = nullptr;
  const Rank* ck = nullptr;
  std::vector<const Node*> comm;  // per record
  std::map<uint64_t, const Node*> by_id;
};

Sides sides(const trace::Job& dlc, const Job& ck, int32_t rank) {
  Sides s;
  s.dlc = &dlc.nodes[static_cast<size_t>(rank)];
  s.ck = ck.rank(rank);
  for (const Node& n : s.ck->nodes) {
    s.by_id[n.id] = &n;
    if (n.type == NodeType::kCommSend || n.type == NodeType::kCommRecv) s.comm.push_back(&n);
  }
  return s;
}

// The record nodes `n` depends on: its data_deps, through COMP_NODEs (think times) only.
std::set<const Node*> record_deps(const Sides& s, const Node& n) {
  std::set<const Node*> out;
  std::vector<uint64_t> todo(n.data_deps().begin(), n.data_deps().end());
  while (!todo.empty()) {
    const Node* d = s.by_id.at(todo.back());
    todo.pop_back();
    if (d->type == NodeType::kComp) {
      todo.insert(todo.end(), d->data_deps().begin(), d->data_deps().end());
    } else {
      out.insert(d);
    }
  }
  return out;
}

// The conversion of the SketchDLC or native job `input` to Chakra, checked against the job as
// the trace loader reads it: ranks, messages per pair with their sizes in order, every
// dependency and think time, validate clean, stats' totals.
void check_dlc_conversion(const std::string& input, const std::string& out) {
  CliRun r = run("convert " + input + " --to chakra -o " + out);
  ASSERT_EQ(r.exit, 0) << r.output;
  const std::string name = fs::path(out).filename().string();
  EXPECT_THAT(r.output, HasSubstr("wrote " + out + " (chakra): "));
  const trace::LoadResult dlc = trace::test::load(input);
  ASSERT_EQ(dlc.diagnostics.errors(), 0u) << dlc.diagnostics.report();
  const int32_t world = dlc.job.num_workers + dlc.job.num_servers;
  EXPECT_THAT(r.output, HasSubstr(std::to_string(world) + " ranks (" + name + ".<rank>.et)"));
  EXPECT_TRUE(fs::exists(out + "/" + name + ".0.et"));
  const Job ck = load_clean(out);
  ASSERT_EQ(ck.world, world);
  // Sizes in order per (src, dst): the trace's sends against the Chakra files' sends.
  std::map<std::pair<int64_t, int64_t>, std::vector<uint64_t>> want, got;
  uint64_t deps_checked = 0, thinks = 0;
  for (int32_t rank = 0; rank < world; ++rank) {
    const Sides s = sides(dlc.job, ck, rank);
    const std::vector<trace::Record>& recs = s.dlc->records;
    ASSERT_EQ(s.comm.size(), recs.size()) << out << " rank " << rank;
    for (uint32_t i = 0; i < recs.size(); ++i) {
      const trace::Record& rec = recs[i];
      const Node& n = *s.comm[i];
      const std::string where = out + " rank " + std::to_string(rank) + " record " +
                                std::to_string(i) + " (line " + std::to_string(rec.line) + ")";
      ASSERT_EQ(n.type, rec.is_send() ? NodeType::kCommSend : NodeType::kCommRecv) << where;
      EXPECT_EQ(n.size, rec.length) << where;
      EXPECT_EQ(rec.is_send() ? n.dst : n.src, rec.peer) << where;
      if (rec.is_send()) want[{rank, rec.peer}].push_back(rec.length);
      std::set<const Node*> deps;
      for (const uint32_t d : s.dlc->deps_of(i)) deps.insert(s.comm[d]);
      // A set-up command without dependencies follows the record before it, as dlc-replay
      // reads it (docs/replay.md, "Replay semantics").
      if (!rec.is_data() && deps.empty() && i > 0) deps.insert(s.comm[i - 1]);
      EXPECT_EQ(record_deps(s, n), deps) << where;
      EXPECT_TRUE(n.ctrl_deps().empty()) << where;
      deps_checked += deps.size();
      // A send's think time: a COMP_NODE of dTime in microseconds (nearest) right before it.
      const auto us = static_cast<uint64_t>(std::llround(static_cast<double>(rec.dtime_ns) / 1e3));
      if (rec.is_send() && us > 0) {
        ASSERT_EQ(n.data_deps().size(), 1u) << where;
        const Node& think = *s.by_id.at(n.data_deps()[0]);
        EXPECT_EQ(think.type, NodeType::kComp) << where;
        EXPECT_EQ(think.duration_us, us) << where;
        ++thinks;
      } else {
        for (const uint64_t d : n.data_deps()) {
          EXPECT_NE(s.by_id.at(d)->type, NodeType::kComp) << where;
        }
      }
    }
    for (const Node& n : s.ck->nodes) {
      if (n.type == NodeType::kCommSend) got[{n.src, n.dst}].push_back(n.size);
    }
  }
  EXPECT_EQ(got, want) << out;
  // Chakra's pairing (the n-th send of a (src, dst, tag) with the n-th receive) pairs the
  // records the trace's matcher paired, every message once.
  std::set<std::tuple<int64_t, const Node*, int64_t, const Node*>> want_pairs, got_pairs;
  std::vector<Sides> all;
  for (int32_t rank = 0; rank < world; ++rank) all.push_back(sides(dlc.job, ck, rank));
  for (const trace::Message& m : dlc.job.messages) {
    want_pairs.emplace(m.sender, all[m.sender].comm[m.sender_record], m.receiver,
                       all[m.receiver].comm[m.receiver_record]);
  }
  for (const MatchedMessage& m : match_messages(ck)) {
    got_pairs.emplace(m.sender, &ck.ranks[static_cast<size_t>(m.sender)].nodes[m.send_node],
                      m.receiver, &ck.ranks[static_cast<size_t>(m.receiver)].nodes[m.recv_node]);
  }
  EXPECT_EQ(got_pairs.size(), dlc.job.messages.size()) << out;
  EXPECT_TRUE(got_pairs == want_pairs) << out << ": Chakra pairs other sends and receives";
  EXPECT_GT(deps_checked, 0u);
  EXPECT_GT(thinks, 0u);
  r = run("validate " + out);
  EXPECT_EQ(r.exit, 0) << r.output;
  // stats: the same messages and bytes in all.
  const CliRun a = run("stats -q --json - " + input);
  const CliRun b = run("stats -q --json - " + out);
  ASSERT_EQ(a.exit, 0) << a.output;
  ASSERT_EQ(b.exit, 0) << b.output;
  const auto ja = nlohmann::json::parse(a.output);
  const auto jb = nlohmann::json::parse(b.output);
  uint64_t sends = 0, bytes = 0;
  for (const auto& rank : jb["ranks"]) {
    sends += rank["messages"]["sends"].get<uint64_t>();
    bytes += rank["messages"]["send_bytes"].get<uint64_t>();
  }
  const auto count = ja["message_sizes"]["count"].get<uint64_t>();
  EXPECT_EQ(sends, count);
  EXPECT_EQ(sends, ja["job"]["messages"].get<uint64_t>());
  EXPECT_EQ(bytes,
            std::llround(ja["message_sizes"]["mean"].get<double>() * static_cast<double>(count)));
}

TEST(ChakraWrite, SketchJobBasic) {
  TempDir tmp;
  check_dlc_conversion(trace::test::data("basic"), tmp / "basic");
}

TEST(ChakraWrite, ExampleJob) {
  TempDir tmp;
  check_dlc_conversion(DLCNET_EXAMPLE_JOB, tmp / "lenet");
  // Chakra -> Chakra: the same files, byte for byte.
  const std::string again = tmp / "again";
  const CliRun r = run("convert " + (tmp / "lenet") + " --to chakra -o " + again);
  ASSERT_EQ(r.exit, 0) << r.output;
  for (int rank = 0; rank < 3; ++rank) {
    const std::string n = std::to_string(rank);
    EXPECT_EQ(trace::test::read_file(again + "/again." + n + ".et"),
              trace::test::read_file(tmp / ("lenet/lenet." + n + ".et")))
        << "rank " << rank;
  }
}

TEST(ChakraWrite, NativeAndSyntheticJobs) {
  TempDir tmp;
  CliRun r = run("convert " + trace::test::data("basic") + " --to native -o " + (tmp / "b.csv"));
  ASSERT_EQ(r.exit, 0) << r.output;
  check_dlc_conversion(tmp / "b.csv", tmp / "native");
  // Think times in nanoseconds (a native file may carry them): rounded to the nearest
  // microsecond, none below half of one.
  std::istringstream in(trace::test::read_file(tmp / "b.csv"));
  std::string edited, line;
  const char* thinks[] = {"400", "2499", "2500", "20000500"};
  size_t k = 0;
  while (std::getline(in, line)) {
    if (line.find(",push_send,") != std::string::npos) {
      size_t at = 0;
      for (int field = 0; field < 9; ++field) at = line.find(',', at) + 1;
      line.replace(at, line.find(',', at) - at, thinks[k++ % 4]);
    }
    edited += line + "\n";
  }
  ASSERT_GT(k, 4u);
  trace::test::write_file(tmp / "ns.csv", edited);
  check_dlc_conversion(tmp / "ns.csv", tmp / "ns");
  r = run("synth -w 3 -s 2 -n 2 -o " + (tmp / "synth"));
  ASSERT_EQ(r.exit, 0) << r.output;
  check_dlc_conversion(tmp / "synth", tmp / "synthetic");
}

// --iterations loops the job as dlc-replay does; --time-scale multiplies the think times.
TEST(ChakraWrite, IterationsAndTimeScale) {
  TempDir tmp;
  const auto totals = [&](const std::string& dir) {
    const Job j = load_clean(dir);
    std::pair<uint64_t, uint64_t> sends_think{0, 0};
    for (const Rank& rank : j.ranks) {
      for (const Node& n : rank.nodes) {
        if (n.type == NodeType::kCommSend) ++sends_think.first;
        if (n.type == NodeType::kComp) sends_think.second += n.duration_us;
      }
    }
    return sends_think;
  };
  const std::string job = DLCNET_EXAMPLE_JOB;
  ASSERT_EQ(run("convert " + job + " --to chakra -o " + (tmp / "one")).exit, 0);
  CliRun r = run("convert " + job + " --to chakra --time-scale 2 -o " + (tmp / "two"));
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto one = totals(tmp / "one");
  const auto two = totals(tmp / "two");
  EXPECT_EQ(two.first, one.first);
  EXPECT_EQ(two.second, 2 * one.second);  // the example's think times are whole microseconds
  // 3 training iterations in the trace: 6 replays them twice, set-up and initialisation once.
  r = run("convert " + job + " --to chakra --iterations 6 -o " + (tmp / "six"));
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto six = totals(tmp / "six");
  EXPECT_GT(six.first, one.first);
  EXPECT_LT(six.first, 2 * one.first);
  EXPECT_EQ(run("validate " + (tmp / "six")).exit, 0);
}

TEST(ChakraWrite, RealTracesNodeForNode) {
  const std::string root = test::shared_data(DLCNET_CHAKRA_DATA);  // skipped without it
  if (root.empty()) GTEST_SKIP() << "no " << DLCNET_CHAKRA_DATA;
  std::vector<std::string> jobs = {"custom_ring_allreduce_8npus_1MB"};
  for (const char* coll : {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"}) {
    for (const char* n : {"4npus_1MB", "8npus_1MB"}) jobs.push_back(std::string(coll) + "/" + n);
  }
  TempDir tmp;
  for (const std::string& job : jobs) {
    const std::string out = tmp / fs::path(job).filename().string();
    fs::remove_all(out);
    const CliRun r = run("convert " + root + "/" + job + " --to chakra -o " + out);
    ASSERT_EQ(r.exit, 0) << job << ":\n" << r.output;
    EXPECT_EQ(run("validate " + out).exit, 0) << job;
    expect_same_job(load_clean(out), load_clean(root + "/" + job), job);
  }
}

TEST(ChakraWrite, Refusals) {
  TempDir tmp;
  const std::string job = trace::test::data("basic");
  const std::string out = tmp / "out";
  ASSERT_EQ(run("convert " + job + " --to chakra -o " + out).exit, 0);
  // An earlier job there: refused without --overwrite, and left whole.
  CliRun r = run("convert " + job + " --to chakra -o " + out);
  EXPECT_EQ(r.exit, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr(out + ": not empty (--overwrite replaces")) << r.output;
  EXPECT_TRUE(fs::exists(out + "/out.2.et"));
  // --overwrite: the earlier job's files go (here a 3-rank job's, with another name), others stay.
  fs::rename(out + "/out.2.et", out + "/old.2.et");
  trace::test::write_file(out + "/notes.txt", "mine");
  r = run("convert " + job + " --to chakra --overwrite -o " + out);
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_FALSE(fs::exists(out + "/old.2.et"));
  EXPECT_TRUE(fs::exists(out + "/out.2.et"));
  EXPECT_TRUE(fs::exists(out + "/notes.txt"));
  EXPECT_EQ(run("validate -q " + out).exit, 0);
  // A job the conversion refuses (a worker's file missing: it has no rank) leaves the job
  // there whole, even with --overwrite.
  fs::copy(job, tmp / "partial", fs::copy_options::recursive);
  fs::remove_all(tmp / "partial/worker1");
  r = run("convert " + (tmp / "partial") + " --to chakra --overwrite -o " + out);
  EXPECT_EQ(r.exit, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("worker1: its trace file is absent")) << r.output;
  EXPECT_TRUE(fs::exists(out + "/out.2.et"));
  // A directory that cannot be made: named, exit 3.
  trace::test::write_file(tmp / "file", "x");
  r = run("convert " + job + " --to chakra -o " + (tmp / "file/sub"));
  EXPECT_EQ(r.exit, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("-o " + (tmp / "file/sub") + ": cannot create")) << r.output;
  // A Chakra job with errors (rank 0's file as rank 1's): refused (exit 1) naming the file, the
  // node and the field.
  fs::copy_file(out + "/out.0.et", out + "/out.1.et", fs::copy_options::overwrite_existing);
  r = run("convert " + out + " --to chakra -o " + (tmp / "bad"));
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr(out + "/out.1.et: error: node #")) << r.output;
  EXPECT_THAT(r.output, HasSubstr("field 'comm_src'")) << r.output;
  EXPECT_FALSE(fs::exists(tmp / "bad"));
  // --iterations and --time-scale do not apply to a Chakra job.
  r = run("convert " + out + " --to chakra --time-scale 2 --force -o " + (tmp / "scaled"));
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("a Chakra job is written node for node")) << r.output;
}

}  // namespace
}  // namespace dlcnet::trace::chakra
