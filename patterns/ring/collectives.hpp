// The table of each collective, one per file.
#pragma once

#include "patterns/ring/collective.hpp"

namespace dlcnet::ring {

extern const CollectiveDef kAllreduce;
extern const CollectiveDef kReducescatter;
extern const CollectiveDef kAllgather;
extern const CollectiveDef kAlltoall;

}  // namespace dlcnet::ring
