// Four flows the fct writer's and the replay report's tests share: pair 0->2 has three
// (sizes 1000, 1 MB, 100), pair 2->0 one.
#pragma once

#include <vector>

#include "flows/flow.hpp"

namespace dlcnet::testing {

inline std::vector<Flow> sample_flows() {
  std::vector<Flow> f(4);
  f[0] = {0, 2, 1, 0, 1000, 5000, 10000, 0};
  f[1] = {0, 2, 2, 0, 1000000, 1000, 110000, 0};
  f[2] = {2, 0, 1, 1, 100, 3000, 8000, 0};
  f[3] = {0, 2, 3, 0, 100, 7000, 9000, 0};
  return f;
}

}  // namespace dlcnet::testing
