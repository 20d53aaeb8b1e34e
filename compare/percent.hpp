// How dlc-compare's reports print a relative error: signed ("+3.2%") or absolute ("3.2%").
#pragma once

#include <cstdio>
#include <string>

namespace dlcnet::compare {

inline std::string signed_pct(double e) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", 100 * e);
  return b;
}

inline std::string abs_pct(double e) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100 * e);
  return b;
}

}  // namespace dlcnet::compare
