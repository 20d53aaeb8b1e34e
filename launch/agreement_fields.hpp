// The options behind an agreement's fingerprint (Job::agree): lines "OPTION VALUE", and what
// differs between two ranks' lines, for an error that names the option and both values.
#pragma once

#include <string>
#include <string_view>

namespace dlcnet {

// " (-n: 5 on rank 2, 10 here; ...)", or "" when no field differs.
std::string field_differences(std::string_view mine, std::string_view theirs, int rank);

}  // namespace dlcnet
