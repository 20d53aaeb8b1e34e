#include "core/table.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "core/error.hpp"

namespace dlcnet {
namespace {

TEST(Table, PrintsHeaderUnitsAndAlignedRows) {
  Table t({{"#bytes", ""}, {"t_min", "usec"}});
  t.add_row({"64", fixed(1.5, 2)});
  t.add_row({"1048576", fixed(123.456, 2)});
  std::ostringstream out;
  t.print(out);
  EXPECT_EQ(out.str(),
            "  #bytes    t_min\n"
            "           [usec]\n"
            "      64     1.50\n"
            " 1048576   123.46\n");
}

TEST(Table, RowWidthMismatchIsAnError) {
  Table t({{"a", ""}, {"b", ""}});
  EXPECT_THROW(t.add_row({"1"}), Error);
}

}  // namespace
}  // namespace dlcnet
