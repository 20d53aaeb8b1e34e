// Process groups of Chakra jobs (docs/chakra.md, "Process groups"): defined by PyTorch's
// `## process_group:init ##` metadata node in the forms Chakra's converters leave its inputs in,
// or by ASTRA-sim's communicator-group file; a collective runs among its group's ranks; every
// bad definition or use is named by file, node (or group) and field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"
#include "trace/chakra/chakra_groups.hpp"
#include "trace/chakra/chakra_loader.hpp"
#include "trace/chakra/chakra_native.hpp"
#include "trace/chakra/chakra_stats.hpp"
#include "trace/chakra/chakra_writer.hpp"

namespace dlcnet::trace::chakra {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using GroupedNodes = std::vector<std::vector<pb::Node>>;

LoadResult load(const trace::test::TempDir& dir, const GroupedNodes& ranks,
                const std::string& comm_groups = "") {
  for (size_t r = 0; r < ranks.size(); ++r) {
    trace::test::write_file(dir / ("job." + std::to_string(r) + ".et"), test::et_bytes(ranks[r]));
  }
  const std::vector<std::string> inputs{dir.path()};
  return load_job(inputs, 100, comm_groups);
}

std::string errors(const LoadResult& res) {
  return res.diagnostics.first_errors(10);
}

TEST(ChakraGroups, MetadataNodeInEveryFormConvertersLeave) {
  const std::string json = test::kGroups;
  std::string quoted;  // the JSON as a JSON string
  for (const char c : json) {
    if (c == '"') quoted += '\\';
    quoted += c;
  }
  // Each group its own JSON object's text in a list, as a converter may leave PyTorch's list.
  std::string split = "[";
  for (const char* g : {R"({"pg_name": "0", "ranks": []})", R"({"pg_name": "1", "ranks": [0, 1]})",
                        R"({"pg_name": "2", "ranks": [3, 2]})"}) {
    std::string one;
    for (const char c : std::string(g)) {
      if (c == '"') one += '\\';
      one += c;
    }
    split += std::string(split.size() > 1 ? ", " : "") + "\"" + one + "\"";
  }
  split += "]";
  for (const std::string& values : {json, "[" + json + "]", "[[" + json + "]]",
                                    "[\"" + quoted + "\"]", "['" + json + "']", split}) {
    trace::test::TempDir dir;
    const LoadResult res = load(dir, test::grouped_job(values));
    ASSERT_TRUE(res.ok()) << values << "\n" << errors(res);
    ASSERT_EQ(res.job.groups.size(), 3u) << values;
    EXPECT_THAT(group_ranks(res.job, "0"), ElementsAre(0, 1, 2, 3));
    EXPECT_THAT(group_ranks(res.job, "1"), ElementsAre(0, 1));
    EXPECT_THAT(group_ranks(res.job, "2"), ElementsAre(3, 2));  // the group's order
    EXPECT_THAT(group_ranks(res.job, ""), ElementsAre(0, 1, 2, 3));
    EXPECT_THAT(res.job.groups.at("1").origin, HasSubstr("job.0.et: node #0 (id 1"));
  }
}

TEST(ChakraGroups, CommGroupsFileAsAstraSimWritesIt) {
  trace::test::TempDir dir;
  const std::string file = dir / "groups.json";
  trace::test::write_file(file, R"({"0": [0, 1, 2, 3], "1": [0, 1], "2": [3, 2]})");
  const LoadResult res = load(dir, test::grouped_job(""), file);
  ASSERT_TRUE(res.ok()) << errors(res);
  EXPECT_THAT(group_ranks(res.job, "2"), ElementsAre(3, 2));
  EXPECT_EQ(res.job.groups.at("2").origin, "--comm-groups " + file);
}

// Steps and traffic within the group: a tensor-parallel all-reduce of 1 MiB among 2 ranks is
// 2(N-1) = 2 messages of 512 KiB each way; the broadcast's root is the group's first rank (rank
// 3 in group "2", whose order is 3, 2); the world all-reduce 2(N-1) = 6 messages of 1024 B.
TEST(ChakraGroups, CollectivesRunAmongTheirGroup) {
  trace::test::TempDir dir;
  const LoadResult res = load(dir, test::grouped_job(test::kGroups));
  ASSERT_TRUE(res.ok()) << errors(res);
  const Job& job = res.job;
  const CollectiveOptions o;
  const auto peers = [&](int r, size_t node) {
    std::vector<int32_t> out;
    for (const Step& s : collective_steps(job, job.ranks[static_cast<size_t>(r)],
                                          job.ranks[static_cast<size_t>(r)].nodes[node], o)) {
      out.push_back(s.send ? s.peer : -1 - s.peer);
    }
    return out;
  };
  EXPECT_THAT(peers(2, 1), ElementsAre(3, -4, 3, -4));  // ring of {3, 2}: sends to 3
  EXPECT_THAT(peers(3, 2), ElementsAre(2));             // the root of group "2" sends
  EXPECT_THAT(peers(2, 2), ElementsAre(-4));            // rank 2 receives from it
  EXPECT_EQ(peers(0, 3).size(), 12u);                   // the world ring: 6 sends, 6 receives
  const JobStats stats = compute_stats(job, o);
  ASSERT_EQ(stats.ranks.size(), 4u);
  // Rank 3: 2 x 512 KiB (all-reduce) + 4096 (broadcast root) + 6 x 1024 (world all-reduce).
  EXPECT_EQ(stats.ranks[3].collective.sends, 2u + 1u + 6u);
  EXPECT_EQ(stats.ranks[3].collective.send_bytes, 2u * (512u << 10) + 4096u + 6u * 1024u);
  EXPECT_EQ(stats.ranks[2].collective.sends, 2u + 0u + 6u);
  // --root 1: the broadcast's root is the group's second rank (rank 2 in group "2").
  CollectiveOptions root1;
  root1.root = 1;
  EXPECT_EQ(compute_stats(job, root1).ranks[2].collective.sends, 2u + 1u + 6u);
  EXPECT_EQ(smallest_rooted_group(job), 2);
  for (const CollectiveStats& c : stats.collectives) {
    EXPECT_EQ(c.group_ranks, c.pg_name == "0" ? 4 : 2) << c.pg_name;
  }
}

TEST(ChakraGroups, BadDefinitionsAndUsesNamed) {
  struct Case {
    std::string values;  // the metadata node's inputs; empty: none
    std::string groups_file;
    std::string expected;
  };
  const std::vector<Case> cases{
      {"", "",
       "job.0.et: error: node #0 (id 2, 'n2'): field 'pg_name': process group '1' is not defined"},
      {R"([{"pg_name": "1", "ranks": [0, 1]}, {"pg_name": "2", "ranks": [2, 3]}])", "",
       "job.1.et: error: node #3 (id 4, 'n4'): field 'pg_name': process group '0' is not defined"},
      {R"([{"pg_name": "0", "ranks": []}, {"pg_name": "1", "ranks": [0, 2]},)"
       R"( {"pg_name": "2", "ranks": [2, 3]}])",
       "",
       "job.1.et: error: node #1 (id 2, 'n2'): field 'pg_name': rank 1 is not a member of process "
       "group '1'"},
      {R"([{"pg_name": "1", "ranks": [0, 7]}])", "",
       "group '1': field 'ranks': rank 7 is not a rank of this job (0 to 3)"},
      {R"([{"pg_name": "1", "ranks": [0, 0]}])", "", "field 'ranks': rank 0 appears twice"},
      {R"([{"pg_name": "1", "ranks": [0, 1], "group_size": 3}])", "",
       "group '1': field 'group_size': 3, but the group has 2 ranks"},
      {R"([{"pg_name": "1", "ranks": "0-1"}])", "",
       "group '1': field 'ranks': missing or not a list of ranks"},
      {R"([{"pg_name": "1", "ranks": [0, 1.5]}])", "", "field 'ranks': 1.5 is not a rank"},
      {"not json", "",
       "job.0.et: error: node #0 (id 1, '## process_group:init ##'): field 'inputs': no process "
       "group"},
      {"", R"([0, 1])", "--comm-groups: not a JSON object of groups"},
      {"", R"({"1": [0, 1], "2": [2, 3], "0": [0, 1, 2, 3)", "groups.json:1:"},
      {test::kGroups, R"({"1": [1, 0]})",
       "--comm-groups GROUPS: group '1': field 'ranks': other ranks than "
       "DIR/job.0.et: node #0"},
  };
  for (const Case& c : cases) {
    trace::test::TempDir dir;
    std::string file;
    if (!c.groups_file.empty()) {
      file = dir / "groups.json";
      trace::test::write_file(file, c.groups_file);
    }
    const LoadResult res = load(dir, test::grouped_job(c.values), file);
    EXPECT_FALSE(res.ok()) << c.expected;
    std::string expected = c.expected;
    for (const auto& [name, path] :
         {std::pair<std::string, std::string>{"GROUPS", file}, {"DIR", dir.path()}}) {
      if (const size_t at = expected.find(name); at != std::string::npos) {
        expected.replace(at, name.size(), path);
      }
    }
    EXPECT_THAT(errors(res), HasSubstr(expected)) << c.values << " / " << c.groups_file;
  }
}

// A job written and read back: the same groups, and every rank the same collective traffic.
void expect_same_groups(const Job& job, const Job& back) {
  ASSERT_EQ(back.groups.size(), job.groups.size());
  for (const auto& [name, group] : job.groups) {
    EXPECT_EQ(back.groups.at(name).ranks, group.ranks) << name;
  }
  const JobStats a = compute_stats(job, {});
  const JobStats b = compute_stats(back, {});
  for (size_t r = 0; r < a.ranks.size(); ++r) {
    EXPECT_EQ(a.ranks[r].collective.send_bytes, b.ranks[r].collective.send_bytes) << r;
  }
}

// Written back as Chakra (convert --to chakra), the metadata node keeps its inputs: the same
// groups, the same traffic.
TEST(ChakraGroups, WrittenBackWithTheirDefinitions) {
  trace::test::TempDir dir;
  const LoadResult res = load(dir, test::grouped_job(std::string("['") + test::kGroups + "']"));
  ASSERT_TRUE(res.ok()) << errors(res);
  trace::test::TempDir out;
  WriteCounts counts;
  for (const Rank& r : res.job.ranks) write_chakra_rank(r, out.path(), "job", counts);
  const std::vector<std::string> inputs{out.path()};
  const LoadResult back = load_job(inputs, 100);
  ASSERT_TRUE(back.ok()) << errors(back);
  expect_same_groups(res.job, back.job);
}

// The native CSV carries the definitions too (its `inputs` column): read back without
// --comm-groups, the same groups and the same traffic.
TEST(ChakraGroups, NativeCsvCarriesTheirDefinitions) {
  trace::test::TempDir dir;
  const LoadResult res = load(dir, test::grouped_job(test::kGroups));
  ASSERT_TRUE(res.ok()) << errors(res);
  const std::string csv = dir / "job.csv";
  write_native_job(res.job, csv);
  EXPECT_THAT(trace::test::read_file(csv), HasSubstr(",inputs\n"));
  const LoadResult back = load_job(std::vector<std::string>{csv}, 100);
  ASSERT_TRUE(back.ok()) << errors(back);
  expect_same_groups(res.job, back.job);
  // A value in the column on a node that is not metadata: named.
  trace::test::write_file(dir / "bad.csv",
                          "# dlcnet-trace 2 ranks=1\nrank,id,type,inputs\n"
                          "0,1,comp,[]\n");
  const LoadResult bad = load_job(std::vector<std::string>{dir / "bad.csv"}, 100);
  EXPECT_THAT(errors(bad), HasSubstr("bad.csv:3"));
  EXPECT_THAT(errors(bad), HasSubstr("field 'inputs': only a metadata has one"));
}

}  // namespace
}  // namespace dlcnet::trace::chakra
