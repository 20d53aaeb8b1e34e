// The job layer's collectives without a transport: ranks are threads, each with its own Job
// over the real TCP bootstrap on 127.0.0.1.
#include "launch/job.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"

namespace dlcnet {
namespace {

// Runs body(job) on `n` ranks at once; returns each rank's error text ("" when none).
std::vector<std::string> run_ranks(int n, const std::function<void(Job&)>& body) {
  JobConfig c0;
  c0.world_size = n;
  c0.port = 0;
  c0.job_token = 42;
  c0.timeout = std::chrono::seconds(20);
  auto root = std::make_unique<Job>(c0);
  const uint16_t port = root->port();
  std::vector<std::string> errors(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      try {
        std::unique_ptr<Job> mine;
        if (r != 0) {
          JobConfig c = c0;
          c.rank = r;
          c.coordinator_host = "127.0.0.1";
          c.port = port;
          mine = std::make_unique<Job>(c);
        }
        Job& job = r == 0 ? *root : *mine;
        job.join();
        try {
          body(job);
        } catch (const std::exception& e) {
          throw Error(job.settle_failure(e.what()));
        }
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  return errors;
}

TEST(Job, AgreementReturnsTheSmallestLimit) {
  std::vector<uint64_t> got(3);
  const auto errors = run_ranks(3, [&](Job& job) {
    got[job.rank()] = job.agree(7, 100 - static_cast<uint64_t>(job.rank()) * 10, "x", "y");
  });
  for (const auto& e : errors) EXPECT_EQ(e, "");
  EXPECT_EQ(got, (std::vector<uint64_t>{80, 80, 80}));
}

TEST(Job, AgreementNamesTheRanksThatDiffer) {
  auto errors = run_ranks(4, [&](Job& job) {
    job.agree(job.rank() == 2 ? 8 : 7, 1, "runs something else", "run something else");
  });
  for (const auto& e : errors)
    EXPECT_NE(e.find("rank 2 runs something else"), std::string::npos) << e;
  errors = run_ranks(4, [&](Job& job) {
    job.agree(job.rank() % 2 == 1 ? 8 : 7, 1, "runs something else", "run something else");
  });
  for (const auto& e : errors)
    EXPECT_NE(e.find("ranks 1, 3 run something else"), std::string::npos) << e;
}

TEST(Job, GatherBringsEveryRanksBlobToRankZeroAndPhasesAreTimed) {
  std::vector<Bytes> at_root;
  std::vector<size_t> sizes(3);
  const auto errors = run_ranks(3, [&](Job& job) {
    const auto r = static_cast<uint8_t>(job.rank());
    std::vector<Bytes> got = job.gather(Bytes{r, static_cast<uint8_t>(r * 2)});
    sizes[r] = got.size();
    if (r == 0) {
      at_root = got;
      std::vector<std::string> names;
      for (const PhaseTime& p : job.phases()) names.push_back(p.name);
      EXPECT_EQ(names, (std::vector<std::string>{"join", "gather"}));
      EXPECT_TRUE(job.phases_json().contains("gather_s"));
      EXPECT_EQ(job.phases_line().rfind("# job phases on rank 0: join ", 0), 0u)
          << job.phases_line();
      EXPECT_NE(job.phases_line().find(", gather "), std::string::npos) << job.phases_line();
      EXPECT_NE(job.phases_line().find(" (3 ranks; set-up "), std::string::npos)
          << job.phases_line();
      // No run yet: every phase is set-up; rank 0 handled a hello and two collectives (the
      // host identities, the gather) per other rank.
      const nlohmann::json setup = job.setup_json();
      EXPECT_EQ(setup["ranks"], 3);
      EXPECT_DOUBLE_EQ(setup["setup_s"].get<double>(),
                       setup["join_s"].get<double>() + setup["gather_s"].get<double>());
      EXPECT_EQ(setup["wrapup_s"], 0.0);
      EXPECT_EQ(setup["bootstrap_frames_received"], (3 - 1) * 3);
    }
    EXPECT_EQ(job.ranks_on_this_host(), 3);
  });
  for (const auto& e : errors) EXPECT_EQ(e, "");
  EXPECT_EQ(sizes, (std::vector<size_t>{3, 0, 0}));
  ASSERT_EQ(at_root.size(), 3u);
  for (uint8_t r = 0; r < 3; ++r) EXPECT_EQ(at_root[r], (Bytes{r, static_cast<uint8_t>(r * 2)}));
}

TEST(Job, EveryRankExitsWithRankZerosVerdict) {
  for (bool ok : {true, false}) {
    std::vector<int> codes(3, -1);
    const auto errors = run_ranks(3, [&](Job& job) {
      // Only rank 0's word counts: the others pass the opposite.
      codes[job.rank()] = job.verdict(job.rank() == 0 ? ok : !ok);
    });
    for (const auto& e : errors) EXPECT_EQ(e, "");
    EXPECT_EQ(codes, std::vector<int>(3, ok ? 0 : 1));
  }
}

TEST(Job, ReleaseAtAnInstantNeedsTheClocks) {
  const auto errors = run_ranks(2, [&](Job& job) { job.release(Release::instant, Idle::spin); });
  for (const auto& e : errors) EXPECT_NE(e.find("clocks aligned first"), std::string::npos) << e;
}

TEST(Job, ReleaseByBarrierIsReportedAfterTheClocks) {
  const auto errors = run_ranks(2, [&](Job& job) {
    EXPECT_GT(job.release(Release::barrier, Idle::spin), 0);
    job.release_report();
  });
  for (const auto& e : errors) EXPECT_NE(e.find("clocks aligned after the run"), std::string::npos);
}

}  // namespace
}  // namespace dlcnet
