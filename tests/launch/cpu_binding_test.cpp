// --cpu: the list syntax, and binding the calling thread (checked with the kernel's view of the
// thread's affinity, on a thread of its own so the test runner keeps its CPUs).
#include "launch/cpu_binding.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <exception>
#include <thread>

#include "core/error.hpp"

namespace dlcnet {
namespace {

TEST(CpuList, ParsesRangesAndListsAscendingWithoutDuplicates) {
  const CpuRequest r = parse_cpu_request("8,0-3,2");
  EXPECT_EQ(r.mode, CpuRequest::Mode::list);
  EXPECT_EQ(r.cpus, (std::vector<unsigned>{0, 1, 2, 3, 8}));
  EXPECT_EQ(format_cpu_list(r.cpus), "0-3,8");
  EXPECT_EQ(parse_cpu_request("auto").mode, CpuRequest::Mode::automatic);
  EXPECT_EQ(parse_cpu_request("none").mode, CpuRequest::Mode::none);
}

TEST(CpuList, RefusesWhatIsNotAList) {
  for (const char* bad : {"", "x", "1-", "-1", "3-1", "1,,2", "1-2-3", "0x1", "99999999"}) {
    EXPECT_NE(cpu_request_problem(bad), "") << bad;
    EXPECT_THROW(parse_cpu_request(bad), Error) << bad;
  }
  EXPECT_NE(cpu_request_problem("3-1").find("runs backwards"), std::string::npos);
}

std::vector<unsigned> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  std::vector<unsigned> out;
  for (unsigned c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) out.push_back(c);
  }
  return out;
}

CpuBinding bind_on_thread(const std::string& spec, const std::string& device, unsigned slot,
                          unsigned host_ranks = 0) {
  CpuBinding b;
  std::exception_ptr error;
  std::thread([&] {
    try {
      b = bind_this_thread(parse_cpu_request(spec), device, slot, host_ranks);
    } catch (...) {
      error = std::current_exception();
    }
  }).join();
  if (error) std::rethrow_exception(error);
  return b;
}

TEST(CpuBinding, AListBindsTheSlotsCpu) {
  const std::vector<unsigned> cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  const std::string list = format_cpu_list(cpus);
  const unsigned slot = 1;
  const unsigned want = cpus[slot % cpus.size()];
  const CpuBinding b = bind_on_thread(list, "", slot);
  EXPECT_TRUE(b.bound);
  EXPECT_EQ(b.cpus, std::vector<unsigned>{want});
  EXPECT_EQ(b.affinity, std::vector<unsigned>{want}) << "the kernel's view of the thread";
  EXPECT_EQ(b.to_json()["affinity"], nlohmann::json(std::vector<unsigned>{want}));
}

TEST(CpuBinding, NoneLeavesTheThreadAlone) {
  const CpuBinding b = bind_on_thread("none", "rxe0", 0);
  EXPECT_FALSE(b.bound);
  EXPECT_EQ(b.affinity, allowed_cpus());
}

TEST(CpuBinding, AutoWithoutADeviceSaysSoAndDoesNotBind) {
  const CpuBinding b = bind_on_thread("auto", "", 0);
  EXPECT_FALSE(b.bound);
  EXPECT_NE(b.reason.find("not bound"), std::string::npos) << b.reason;
  EXPECT_EQ(b.affinity, allowed_cpus());
}

// Without a device, ranks that fit the host's cores take one each (as mpirun binds them); more
// ranks than cores stay where the scheduler puts them. This process's CPUs stand for the cores
// (a machine with SMT has fewer cores than CPUs: then the last rank count is more than cores).
TEST(CpuBinding, AutoWithoutADeviceGivesEachRankOfTheHostACore) {
  const std::vector<unsigned> cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  const CpuBinding last = bind_on_thread("auto", "", 0, 1);
  EXPECT_TRUE(last.bound) << last.reason;
  EXPECT_EQ(last.affinity, last.cpus) << "the kernel's view of the thread";
  EXPECT_NE(last.reason.find("one per rank of this host (1)"), std::string::npos) << last.reason;
  if (cpus.size() >= 2) {
    const CpuBinding first = bind_on_thread("auto", "", 1, 2);
    EXPECT_TRUE(first.bound) << first.reason;
    EXPECT_NE(first.cpus, last.cpus) << "slots 0 and 1 on one core";
  }
  const auto many = static_cast<unsigned>(cpus.size()) + 1;
  const CpuBinding over = bind_on_thread("auto", "", 0, many);
  EXPECT_FALSE(over.bound);
  EXPECT_NE(over.reason.find("ranks of this host outnumber"), std::string::npos) << over.reason;
  EXPECT_EQ(over.affinity, cpus);
}

TEST(CpuBinding, AutoWithADeviceTheTopologyDoesNotKnowSaysSo) {
  const CpuBinding b = bind_on_thread("auto", "no-such-device9", 0);
  EXPECT_FALSE(b.bound);
  EXPECT_NE(b.reason.find("no-such-device9"), std::string::npos) << b.reason;
  EXPECT_NE(b.reason.find("not bound"), std::string::npos) << b.reason;
}

TEST(CpuBinding, AListWithACpuThisProcessMayNotUseIsAnError) {
  try {
    bind_on_thread("4000", "", 0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("CPU 4000 is not one this process may run on"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dlcnet
