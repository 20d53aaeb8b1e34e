// The dependency checks on large ranks built in memory (ids in file order and not), and the
// reading of an ET file through a map whose pages are given back behind the reader.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"
#include "trace/chakra/chakra_graph.hpp"
#include "trace/chakra/chakra_mapped_file.hpp"
#include "trace/chakra/chakra_reader.hpp"

namespace dlcnet::trace::chakra {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr uint32_t kNodes = 100000;

// kNodes nodes, node i of id id_of(i) depending on the ids data_of(i) and ctrl_of(i).
template <class Id, class Data, class Ctrl>
Rank rank_of(Id id_of, Data data_of, Ctrl ctrl_of) {
  Rank r;
  r.file = "job.0.et";
  r.nodes.resize(kNodes);
  for (uint32_t i = 0; i < kNodes; ++i) {
    Node& n = r.nodes[i];
    n.index = i;
    n.id = id_of(i);
    r.store.set_name(n, "n" + std::to_string(i));
    r.store.set_deps(n, ctrl_of(i), data_of(i));
  }
  return r;
}

std::vector<uint64_t> none(uint32_t) {
  return {};
}

std::vector<std::string> messages(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const Diagnostic& k : d.kept()) out.push_back(Diagnostics::format(k));
  return out;
}

// A chain (each node after the one before), but node 50000 waits for node 50010: a cycle of 11
// nodes deep in the rank, and every node behind it stuck.
TEST(ChakraGraph, CycleDeepInALargeRankNamed) {
  const Rank r = rank_of(
      [](uint32_t i) -> uint64_t { return i + 1; },
      [](uint32_t i) { return i == 0 ? std::vector<uint64_t>{} : std::vector<uint64_t>{i}; },
      [](uint32_t i) {
        return i == 50000 ? std::vector<uint64_t>{50011} : std::vector<uint64_t>{};
      });
  Diagnostics diag;
  GraphCheck check;
  check(r, diag);
  ASSERT_EQ(diag.errors(), 1u) << diag.report();
  EXPECT_EQ(diag.count_of(Problem::kDependencyCycle), 1u);
  EXPECT_THAT(messages(diag),
              ElementsAre(HasSubstr("job.0.et: error: node #50000 (id 50001, 'n50000'): field "
                                    "'ctrl_deps'/'data_deps': on a dependency cycle (50000 nodes "
                                    "can never run)")));
}

// Every node waits for the one after it: dependencies that all point forward, and no cycle.
TEST(ChakraGraph, ForwardDependenciesWithoutACycleAccepted) {
  const Rank r =
      rank_of([](uint32_t i) -> uint64_t { return i + 1; },
              [](uint32_t i) {
                return i + 1 == kNodes ? std::vector<uint64_t>{} : std::vector<uint64_t>{i + 2};
              },
              none);
  Diagnostics diag;
  GraphCheck check;
  check(r, diag);
  check(r, diag);  // the buffers reused
  EXPECT_EQ(diag.errors(), 0u) << diag.report();
}

// Ids in no order (descending, one repeated), each node after the one before it in the file, and
// one dependency on an id no node has: the duplicate and the missing id named, every other
// dependency found.
TEST(ChakraGraph, UnorderedIdsDuplicateAndMissingNamed) {
  const auto id_of = [](uint32_t i) -> uint64_t {
    return i == 70000 ? 2 * (kNodes - 5) : 2 * (kNodes - i);
  };
  const auto data_of = [&](uint32_t i) {
    if (i == 0) return std::vector<uint64_t>{};
    if (i == 30000) return std::vector<uint64_t>{7};
    return std::vector<uint64_t>{id_of(i - 1)};
  };
  const Rank r = rank_of(id_of, data_of, none);
  Diagnostics diag;
  GraphCheck check;
  check(r, diag);
  EXPECT_EQ(diag.errors(), 2u) << diag.report();
  EXPECT_THAT(messages(diag),
              ElementsAre(HasSubstr("job.0.et: error: node #70000 (id 199990, 'n70000'): field "
                                    "'id': id 199990 is also node #5 (id 199990, 'n5')'s: "
                                    "dependencies on it are ambiguous"),
                          HasSubstr("job.0.et: error: node #30000 (id 140000, 'n30000'): field "
                                    "'data_deps': no node with id 7 in this file")));
  const std::vector<std::vector<uint32_t>> deps = resolve_dependencies(r);
  for (uint32_t i = 1; i < kNodes; ++i) {
    if (i == 30000) {
      EXPECT_TRUE(deps[i].empty());
    } else if (i == 70001) {
      EXPECT_THAT(deps[i], ElementsAre(5u));  // the first node of that id
    } else {
      ASSERT_THAT(deps[i], ElementsAre(i - 1)) << "node " << i;
    }
  }
}

// Frames of every size around a page, one of three pages, read through a map that gives its
// pages back every page: the same nodes as from the bytes in memory, pages given back all along.
TEST(ChakraMappedFile, FramesAcrossGivenBackPages) {
  std::vector<pb::Node> nodes;
  for (uint64_t i = 1; i <= 400; ++i) {
    pb::Node n = test::comp(i, i, {i - 1});
    n.set_name(std::string(i == 200 ? 3 * 4096 : (i * 37) % 700, 'a' + static_cast<char>(i % 26)));
    nodes.push_back(n);
  }
  const std::string bytes = test::et_bytes(nodes);
  const trace::test::TempDir dir;
  std::ofstream(dir / "job.0.et", std::ios::binary) << bytes;
  Rank want;
  Diagnostics want_diag;
  ASSERT_TRUE(read_rank(bytes, "job.0.et", 0, want, want_diag)) << want_diag.report();

  MappedFile mapped;
  std::string error;
  ASSERT_TRUE(mapped.open(dir / "job.0.et", error, 4096)) << error;
  Rank got;
  Diagnostics diag;
  ASSERT_TRUE(read_rank(mapped.bytes(), "job.0.et", 0, got, diag, &mapped)) << diag.report();
  EXPECT_GT(mapped.give_backs(), 2 * (bytes.size() / 4096 - 4));  // both passes
  ASSERT_EQ(got.nodes.size(), want.nodes.size());
  for (size_t i = 0; i < got.nodes.size(); ++i) {
    EXPECT_EQ(got.nodes[i].id, want.nodes[i].id);
    EXPECT_EQ(got.nodes[i].name(), want.nodes[i].name());
    EXPECT_EQ(got.nodes[i].data_deps(), want.nodes[i].data_deps());
  }
  EXPECT_EQ(got.nodes[199].name().size(), 3u * 4096);
}

// A file cut inside its last frame: the map's reading reports it as the bytes' reading does.
TEST(ChakraMappedFile, TruncatedFileSameError) {
  std::vector<pb::Node> nodes;
  for (uint64_t i = 1; i <= 300; ++i) nodes.push_back(test::comp(i, 1, {}));
  nodes[150].set_name(std::string(10000, 'x'));
  const std::string bytes = test::et_bytes(nodes).substr(0, 9000);
  const trace::test::TempDir dir;
  std::ofstream(dir / "job.0.et", std::ios::binary) << bytes;
  Rank a;
  Rank b;
  Diagnostics from_bytes;
  Diagnostics from_file;
  EXPECT_FALSE(read_rank(bytes, dir / "job.0.et", 0, a, from_bytes));
  EXPECT_FALSE(read_rank_file(dir / "job.0.et", 0, b, from_file, 4096));
  EXPECT_EQ(messages(from_file), messages(from_bytes));
  EXPECT_THAT(messages(from_file), ElementsAre(HasSubstr("node #150 at byte offset")));
}

// A file cut short by another process while it is mapped: the pages past its new end read as
// zeros instead of ending the process with SIGBUS, and the map says it shrank.
TEST(ChakraMappedFile, FileShrunkWhileMappedIsNoCrash) {
  std::vector<pb::Node> nodes;
  for (uint64_t i = 1; i <= 2000; ++i) nodes.push_back(test::comp(i, 1, {}));
  const std::string bytes = test::et_bytes(nodes);
  ASSERT_GT(bytes.size(), 3u * 4096);
  const trace::test::TempDir dir;
  std::ofstream(dir / "job.0.et", std::ios::binary) << bytes;
  MappedFile mapped;
  std::string error;
  ASSERT_TRUE(mapped.open(dir / "job.0.et", error, 4096)) << error;
  std::filesystem::resize_file(dir / "job.0.et", 100);
  Rank r;
  Diagnostics diag;
  read_rank(mapped.bytes(), "job.0.et", 0, r, diag, &mapped);
  EXPECT_TRUE(mapped.shrank());
  MappedFile whole;
  ASSERT_TRUE(whole.open(dir / "job.0.et", error, 4096)) << error;
  EXPECT_EQ(whole.bytes().size(), 100u);
  EXPECT_FALSE(whole.shrank());
}

}  // namespace
}  // namespace dlcnet::trace::chakra
