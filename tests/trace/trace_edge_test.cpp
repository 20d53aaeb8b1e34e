// Input at the edges: numbers near 2^31 that must not size an allocation, header variants the
// readers must name (duplicate columns, a newer format version, a byte-order mark), and files
// that are not regular (pipes, FIFOs, directories named like trace files).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <filesystem>
#include <thread>

#include "tests/trace/trace_test_util.hpp"
#include "trace/trace_native.hpp"
#include "trace/trace_stats.hpp"

namespace dlcnet::trace {
namespace {

using ::testing::HasSubstr;

std::string native_pair(int64_t iteration) {
  const std::string it = std::to_string(iteration);
  return "# dlcnet-trace 1 workers=1 servers=1\n"
         "node,id,op,peer,key,iteration,bytes,time_ns\n"
         "w0,0,push_send,s0,0," +
         it +
         ",1024,1000\n"
         "s0,0,push_recv,w0,0," +
         it + ",1024,2000\n";
}

std::string all_errors(const LoadResult& r) {
  std::string s;
  for (const Diagnostic& d : r.diagnostics.kept()) s += Diagnostics::format(d) + "\n";
  return s;
}

// One record of iteration 2^31 - 1 made `dlc-trace stats` allocate per iteration (5.6 GB) or
// abort on bad_alloc. The tables are now as long as the iterations present.
TEST(Edge, IterationNear2To31CostsOneRowNotTwoBillion) {
  test::TempDir dir;
  test::write_file(dir / "big.csv", native_pair(INT32_MAX));
  const LoadResult res = test::load(dir / "big.csv");
  ASSERT_EQ(res.diagnostics.errors(), 0u) << all_errors(res);
  const auto t0 = std::chrono::steady_clock::now();
  const JobStats js = compute_stats(res.job);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  EXPECT_EQ(js.iterations, INT32_MAX);
  ASSERT_EQ(js.nodes.size(), 2u);
  ASSERT_EQ(js.nodes[0].worker_iterations.size(), 1u);
  EXPECT_EQ(js.nodes[0].worker_iterations[0].iteration, INT32_MAX);
  EXPECT_FALSE(js.nodes[0].worker_iterations[0].complete);
  ASSERT_EQ(js.nodes[1].server_iterations.size(), 1u);
}

// Iterations present in a file but with gaps: the rows are the present ones, in order, and
// "complete" still needs the iteration before.
TEST(Edge, StatsRowsAreTheIterationsPresent) {
  const LoadResult res = test::load(test::data("basic"));
  ASSERT_TRUE(res.ok());
  const JobStats js = compute_stats(res.job);
  for (const NodeStats& n : js.nodes) {
    int32_t last = 0;
    for (const WorkerIteration& w : n.worker_iterations) {
      EXPECT_GT(w.iteration, last);
      last = w.iteration;
    }
  }
}

TEST(Edge, DuplicateNativeColumnIsAnErrorNotASilentWinner) {
  test::TempDir dir;
  test::write_file(dir / "dup.csv",
                   "# dlcnet-trace 1 workers=1 servers=1\n"
                   "node,id,op,peer,key,iteration,bytes,key\n"
                   "w0,0,push_send,s0,0,1,1024,5\n");
  const LoadResult res = test::load(dir / "dup.csv");
  EXPECT_FALSE(res.ok());
  EXPECT_THAT(all_errors(res),
              HasSubstr("dup.csv:2: error: column 'key' appears twice (columns 5 and 8)"));
}

TEST(Edge, NewerNativeVersionIsNamedNotCalledNotATrace) {
  test::TempDir dir;
  test::write_file(dir / "v3.csv",
                   "# dlcnet-trace 3 workers=1 servers=1\nnode,id,op,peer,key,iteration,bytes\n");
  const LoadResult res = test::load(dir / "v3.csv");
  EXPECT_EQ(res.diagnostics.count_of(Problem::kNotATrace), 0u) << all_errors(res);
  EXPECT_THAT(all_errors(res), HasSubstr("v3.csv:1: error: native format version 3: this "
                                         "dlcnet reads versions 1 and 2"));
  // Version 2 (an any-rank job) is the Chakra reader's: this loader sees one only from a pipe.
  test::write_file(dir / "v2.csv", "# dlcnet-trace 2 ranks=2\nrank,id,type\n");
  EXPECT_THAT(all_errors(test::load(dir / "v2.csv")),
              HasSubstr("v2.csv:1: error: native format version 2 (an any-rank job) is read from "
                        "a regular file"));
  // "# dlcnet-trace 10" is not version 1 either (the old check was a prefix test).
  test::write_file(dir / "v10.csv", "# dlcnet-trace 10 workers=1 servers=1\n");
  EXPECT_THAT(all_errors(test::load(dir / "v10.csv")), HasSubstr("native format version 10"));
  // Found in a job directory too (the directory walk sniffs the same prefix).
  EXPECT_THAT(all_errors(test::load(dir.path())), HasSubstr("native format version 3"));
}

TEST(Edge, ByteOrderMarkIsNamedInBothFormats) {
  test::TempDir dir;
  test::write_file(dir / "bom.csv", std::string(kUtf8Bom) + native_pair(1));
  EXPECT_THAT(all_errors(test::load(dir / "bom.csv")),
              HasSubstr("bom.csv:1: error: the file starts with a UTF-8 byte-order mark"));
  const std::string sketch = test::read_file(test::data("basic/worker0/trace_record.txt"));
  std::filesystem::create_directories(dir / "w");
  test::write_file(dir / "w/trace_record.txt", std::string(kUtf8Bom) + sketch);
  const LoadResult res = test::load(dir / "w/trace_record.txt");
  EXPECT_EQ(res.diagnostics.count_of(Problem::kNotATrace), 0u) << all_errors(res);
  EXPECT_THAT(all_errors(res), HasSubstr("trace_record.txt:1: error: the file starts with a "
                                         "UTF-8 byte-order mark"));
}

// A pipe can be read once: the format sniff must not eat its first bytes (it did: 16 bytes of a
// native file, the whole first line of a SketchDLC one).
LoadResult load_through_pipe(const std::string& text) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  std::thread writer([&] {
    size_t at = 0;
    while (at < text.size()) {
      const ssize_t n = write(fds[1], text.data() + at, text.size() - at);
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    close(fds[1]);
  });
  LoadResult res = test::load("/dev/fd/" + std::to_string(fds[0]));
  writer.join();
  close(fds[0]);
  return res;
}

TEST(Edge, PipesLoseNothingToTheFormatSniff) {
  test::TempDir dir;
  const LoadResult file = test::load(test::data("basic"));
  ASSERT_TRUE(file.ok());
  write_native(file.job, dir / "job.csv");
  const LoadResult native = load_through_pipe(test::read_file(dir / "job.csv"));
  ASSERT_TRUE(native.ok()) << all_errors(native);
  EXPECT_EQ(native.job.record_count(), file.job.record_count());
  EXPECT_EQ(native.job.messages.size(), file.job.messages.size());

  const std::string w0 = test::data("basic/worker0/trace_record.txt");
  const LoadResult sketch = load_through_pipe(test::read_file(w0));
  EXPECT_EQ(sketch.diagnostics.count_of(Problem::kNotATrace), 0u) << all_errors(sketch);
  EXPECT_EQ(sketch.diagnostics.count_of(Problem::kBadHeader), 0u) << all_errors(sketch);
  EXPECT_EQ(sketch.job.nodes[0].records.size(), test::load(w0).job.nodes[0].records.size());
}

// A FIFO named on the command line is opened once and read as its writer writes it.
TEST(Edge, NamedFifoIsReadOnce) {
  test::TempDir dir;
  const std::string fifo = dir / "job.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string text = native_pair(1);
  std::thread writer([&] {
    const int fd = open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    EXPECT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    close(fd);
  });
  const LoadResult res = test::load(fifo);
  writer.join();
  EXPECT_EQ(res.diagnostics.errors(), 0u) << all_errors(res);
  EXPECT_EQ(res.job.record_count(), 2u);
}

// In a job directory, a FIFO or a directory named like a trace file is an error naming it; the
// FIFO is never opened (nothing writes to it: opening it would wait forever).
TEST(Edge, FifoAndDirectoryInAJobDirectoryAreNamed) {
  test::TempDir dir;
  std::filesystem::copy(test::data("basic"), dir / "job", std::filesystem::copy_options::recursive);
  std::filesystem::create_directories(dir / "job/extra");
  ASSERT_EQ(mkfifo((dir / "job/extra/trace_record.txt").c_str(), 0600), 0);
  std::filesystem::create_directories(dir / "job/more/trace_record_1.txt");
  ASSERT_EQ(mkfifo((dir / "job/notes.fifo").c_str(), 0600), 0);  // not trace-like: left alone
  const LoadResult res = test::load(dir / "job");
  const std::string e = all_errors(res);
  EXPECT_THAT(e, HasSubstr("job/extra/trace_record.txt: error: is a FIFO, not a regular file"));
  EXPECT_THAT(e, HasSubstr("job/more/trace_record_1.txt: error: is a directory, not a regular"));
  EXPECT_THAT(e, ::testing::Not(HasSubstr("notes.fifo")));
}

// dTime * 1000 overflowed int64 in a scheduler-message file (UBSan: signed overflow); now a
// bad number at its line, like the data rows' bound.
TEST(Edge, SchedulerDtimeBeyondInt64NanosecondsIsABadNumber) {
  test::TempDir dir;
  std::filesystem::copy(test::data("basic"), dir / "job", std::filesystem::copy_options::recursive);
  test::write_file(dir / "job/worker0/trace_sch_record.txt",
                   "ID\tsrc\tdst\tlength\tDep\tdTime\tIDdep\tDep_PP\n"
                   "0\t0\t3\t96\t0\t9000000000000000000\t-1\t0\t\tOP:= Worker_Send_Sch\n");
  const LoadResult res = test::load(dir / "job");
  EXPECT_THAT(all_errors(res), HasSubstr("worker0/trace_sch_record.txt:2: error: field 'dTime': "
                                         "expected microseconds, found 9000000000000000000"));
}

// Files of two jobs: the message named the first file as "" (its name was read after the
// file's node had been moved into the job).
TEST(Edge, InconsistentJobNamesBothFiles) {
  test::TempDir dir;
  std::filesystem::copy(test::data("basic"), dir / "job", std::filesystem::copy_options::recursive);
  std::string s = test::read_file(dir / "job/worker1/trace_record.txt");
  s.replace(s.find("num_servers: = 1"), 16, "num_servers: = 2");
  test::write_file(dir / "job/worker1/trace_record.txt", s);
  EXPECT_THAT(all_errors(test::load(dir / "job")),
              HasSubstr("worker1/trace_record.txt: error: this file's job has 2 workers and 2 "
                        "servers, " +
                        (dir / "job/server0/trace_record.txt") + "'s has 2 and 1"));
}

}  // namespace
}  // namespace dlcnet::trace
