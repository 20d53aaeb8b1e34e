// The table of collectives: one file each (allreduce.cpp, ...), each defining one
// CollectiveDef, and one line here. A new collective is its file, its name in this list and
// its line in patterns/CMakeLists.txt (docs/architecture.md, "How to add a collective").
#pragma once

#include "patterns/ring/collective.hpp"

#define DLCNET_RING_COLLECTIVES(X) \
  X(kAllreduce)                    \
  X(kReducescatter)                \
  X(kAllgather)                    \
  X(kAlltoall)                     \
  X(kBroadcast)                    \
  X(kReduce)                       \
  X(kGather)                       \
  X(kScatter)                      \
  X(kBarrier)                      \
  X(kSendrecv)

namespace dlcnet::ring {

#define DLCNET_DECLARE_COLLECTIVE(def) extern const CollectiveDef def;
DLCNET_RING_COLLECTIVES(DLCNET_DECLARE_COLLECTIVE)
#undef DLCNET_DECLARE_COLLECTIVE

}  // namespace dlcnet::ring
