// Malformations the loader rejects: every message names the file, the line and the field.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "tests/trace/trace_test_util.hpp"

namespace dlcnet::trace {
namespace {

using test::data;
using test::load;
using test::messages;
using ::testing::HasSubstr;

std::string first_error(const std::string& rel, Problem p) {
  const LoadResult res = load(data(rel));
  EXPECT_FALSE(res.ok());
  const auto m = messages(res.diagnostics, p);
  if (m.empty()) {
    ADD_FAILURE() << "no " << problem_name(p) << " in:\n" << res.diagnostics.report();
    return "";
  }
  return m[0];
}

TEST(Rejects, MissingColumn) {
  EXPECT_THAT(first_error("reject/missing_column.txt", Problem::kMissingField),
              HasSubstr("reject/missing_column.txt:21: error: missing field 'time_usec'"));
}

TEST(Rejects, NonNumericField) {
  EXPECT_THAT(first_error("reject/non_numeric.txt", Problem::kBadNumber),
              HasSubstr("reject/non_numeric.txt:18: error: field 'length': expected a byte "
                        "count (0 to 4294967295), found '40x60'"));
}

TEST(Rejects, UnknownOperation) {
  EXPECT_THAT(first_error("reject/unknown_operation.txt", Problem::kUnknownOperation),
              HasSubstr("reject/unknown_operation.txt:25: error: field 'Operation': unknown "
                        "operation 'Pull_Fetch_Worker'"));
}

TEST(Rejects, IdDepNamingARecordThatDoesNotExist) {
  EXPECT_THAT(first_error("reject/dangling_iddep.txt", Problem::kDanglingDependency),
              HasSubstr("reject/dangling_iddep.txt:26: error: field 'IDdep': 0-44-s0 names a "
                        "record that does not exist"));
}

TEST(Rejects, DependencyCycle) {
  const std::string m = first_error("reject/cycle.txt", Problem::kDependencyCycle);
  EXPECT_THAT(m, HasSubstr("reject/cycle.txt:15: error: dependency cycle of 4 records"));
  EXPECT_THAT(m, HasSubstr("cycle.txt:18 Pull_Recv_Worker 0-3-s0"));
}

TEST(Rejects, NotATraceInItsFirstLine) {
  const LoadResult res = load(data("reject/not_a_trace.txt"));
  ASSERT_EQ(res.diagnostics.errors(), 1u);
  EXPECT_THAT(messages(res.diagnostics, Problem::kNotATrace)[0],
              HasSubstr("reject/not_a_trace.txt:1: error: not a SketchDLC trace"));
}

TEST(Rejects, ReadJobThrowsWithFileAndLine) {
  try {
    read_job(std::vector<std::string>{data("reject/non_numeric.txt")});
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("non_numeric.txt:18: error: field 'length'"));
  }
}

TEST(Rejects, MissingPathAndWrongRowsAreNamed) {
  const LoadResult res = load(data("no/such/job"));
  EXPECT_THAT(messages(res.diagnostics, Problem::kIo)[0],
              HasSubstr("no/such/job: error: no such file or directory"));
  test::TempDir dir;
  // A server's row in a worker's file (worker rows first).
  std::string text = test::read_file(data("basic/worker1/trace_record.txt"));
  text +=
      "20\t2\t1\t60\t\t6\t\tOP:= Push_Send_Server\t\t1-9-w1\t\t1\t\t3\t\t1500000003\t\t"
      "503500\t\t(1-8-w0, 1-8-w1, )\n";
  test::write_file(dir / "w.txt", text);
  const LoadResult bad = load(dir / "w.txt");
  EXPECT_THAT(messages(bad.diagnostics, Problem::kWrongNode)[0],
              HasSubstr("w.txt:35: error: field 'src'"));
}

TEST(Rejects, FilesOfDifferentJobs) {
  const LoadResult res =
      load({data("basic/worker0/trace_record.txt"), data("two_servers/worker1/trace_record.txt")});
  EXPECT_THAT(messages(res.diagnostics, Problem::kInconsistentJob)[0],
              HasSubstr("files of different jobs"));
}

}  // namespace
}  // namespace dlcnet::trace
