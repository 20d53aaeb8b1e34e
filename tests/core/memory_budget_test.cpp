// The one rule for allocations sized by input (core/memory_budget.hpp).
#include "core/memory_budget.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace dlcnet {
namespace {

TEST(MemoryBudget, KnowsTheHostsMemory) {
  EXPECT_GT(host_memory_bytes(), uint64_t{64} << 20);
}

TEST(MemoryBudget, PassesWhatFitsAndNamesWhatDoesNot) {
  EXPECT_NO_THROW(check_fits_in_memory(1000, 48, "a small job"));
  try {
    check_fits_in_memory(uint64_t{1} << 40, 48, "t.csv:7: iteration 2147483647", "cut the file");
    FAIL() << "48 TiB passed";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("t.csv:7: iteration 2147483647 would need 49152.0 GiB", 0), 0u) << m;
    EXPECT_NE(m.find("of memory: cut the file"), std::string::npos) << m;
  }
  // count * size overflowing uint64 is still refused, not wrapped to a small number.
  EXPECT_THROW(check_fits_in_memory(UINT64_MAX / 2, 48, "x"), Error);
}

}  // namespace
}  // namespace dlcnet
