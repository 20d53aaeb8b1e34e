// How far a job can be looped: Copies::make refuses, before anything is allocated, a replay
// that would not fit (more records than a timeline indexes, more memory than the host has,
// opnums looped past int32), naming the option or the record's file:line.
#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "replay/replay_timeline.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::replay {
namespace {

std::string error_of(const trace::Job& job, uint32_t iterations) {
  try {
    Copies::make(job, iterations);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

trace::Job example() {
  const std::vector<std::string> in = {std::string(DLCNET_EXAMPLE_JOB)};
  return trace::read_job(in);
}

TEST(Copies, LoopsWhatFits) {
  const trace::Job job = example();
  const Copies c = Copies::make(job, 40);
  EXPECT_EQ(c.replay_iterations, 40);
  EXPECT_GE(c.count, 2u);
}

// --iterations 100000000 ran past --timeout at gigabytes per rank.
TEST(Copies, RefusesALoopThatWouldNotFit) {
  const trace::Job job = example();
  EXPECT_NE(error_of(job, 100'000'000).find("--iterations 100000000"), std::string::npos)
      << error_of(job, 100'000'000);
  const std::string huge = error_of(job, 4'000'000'000u);
  EXPECT_NE(huge.find("at most 2147483647"), std::string::npos) << huge;
}

// A record whose opnum is near 2^31: looping it once would overflow the replay's opnums
// (signed overflow in the plan, found by UBSan); refused with the record's file:line.
TEST(Copies, OpnumsLoopedPast2To31NameTheRecord) {
  char tmpl[] = "/tmp/dlc-copies-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string path = std::string(tmpl) + "/big.csv";
  std::ofstream(path) << "# dlcnet-trace 1 workers=1 servers=1\n"
                         "node,id,op,peer,key,iteration,bytes,time_ns\n"
                         "w0,0,push_send,s0,0,536870000,1024,1000\n"
                         "s0,0,push_recv,w0,0,536870000,1024,2000\n";
  const std::vector<std::string> in = {path};
  const trace::Job job = trace::read_job(in);
  EXPECT_NO_THROW(Copies::make(job, 0));
  const std::string e = error_of(job, 2 * 536870000u);
  EXPECT_NE(e.find(path + ":3: opnum 2147479998 looped to 1073740000 iterations"),
            std::string::npos)
      << e;
  std::filesystem::remove_all(tmpl);
}

}  // namespace
}  // namespace dlcnet::replay
