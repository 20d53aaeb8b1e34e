#include "core/stop_budget.hpp"

#include <algorithm>

namespace dlcnet {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kReserveFloor{500};
constexpr milliseconds kReserveCeiling{4000};

}  // namespace

StopBudget stop_budget(milliseconds total) {
  total = std::max(total, milliseconds(0));
  StopBudget b;
  b.total = total;
  b.reserve = std::min(std::clamp(total / 4, kReserveFloor, kReserveCeiling), total / 2);
  b.wait = total - b.reserve;
  b.report_window = b.reserve / 5;
  b.verdict_wait = b.reserve / 2;
  b.close_limit = b.reserve / 5;
  return b;
}

std::string seconds_text(milliseconds ms) {
  const auto whole = ms.count() / 1000;
  auto frac = ms.count() % 1000;
  std::string s = std::to_string(whole);
  if (frac != 0) {
    std::string digits = std::to_string(1000 + frac).substr(1);  // 3 digits, leading zeros
    while (digits.back() == '0') digits.pop_back();
    s += "." + digits;
  }
  return s + " s";
}

}  // namespace dlcnet
