#include "core/tc_units.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "core/error.hpp"

namespace dlcnet {
namespace {

using Unit = std::pair<std::string_view, double>;

// tc's get_rate(): multipliers to bits per second.
constexpr Unit kRateUnits[] = {
    {"", 1},        {"bit", 1},           {"kbit", 1e3}, {"kibit", 1024.0},
    {"mbit", 1e6},  {"mibit", 1048576.0}, {"gbit", 1e9}, {"gibit", 1073741824.0},
    {"tbit", 1e12}, {"bps", 8},           {"kbps", 8e3}, {"kibps", 8192.0},
    {"mbps", 8e6},  {"mibps", 8388608.0}, {"gbps", 8e9}, {"gibps", 8589934592.0}};

// tc's get_size(): multipliers to bytes.
constexpr Unit kSizeUnits[] = {{"", 1},
                               {"b", 1},
                               {"k", 1024.0},
                               {"kb", 1024.0},
                               {"kbit", 1024.0 / 8},
                               {"m", 1048576.0},
                               {"mb", 1048576.0},
                               {"mbit", 1048576.0 / 8},
                               {"g", 1073741824.0},
                               {"gb", 1073741824.0},
                               {"gbit", 1073741824.0 / 8}};

template <size_t N>
double parse(const std::string& text, const std::string& field, const Unit (&units)[N],
             const char* what) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  std::string unit(end);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (end != begin && std::isfinite(value) && value > 0) {
    for (const Unit& u : units) {
      if (u.first == unit && std::isfinite(value * u.second)) return value * u.second;
    }
  }
  throw Error(field + ": '" + text + "' is not a " + what + " as tc writes one");
}

}  // namespace

double tc_rate_Bps(const std::string& text, const std::string& field) {
  return parse(text, field, kRateUnits, "rate (100mbit, 1gbit, 12500kbps)") / 8;
}

double tc_size_bytes(const std::string& text, const std::string& field) {
  return parse(text, field, kSizeUnits, "size (32kb, 8mb, 1500)");
}

}  // namespace dlcnet
