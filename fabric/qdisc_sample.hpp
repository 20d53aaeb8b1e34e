// One reading of a queueing discipline's counters, stamped with now_ns().
#pragma once

#include <cstdint>

namespace dlcnet::fabric {

// The counters are the kernel's, cumulative since the qdisc was created (drops, overlimits,
// sent_*) or instantaneous (backlog_*): differences of two samples give what happened between
// them.
struct QdiscSample {
  int64_t t_ns = 0;  // now_ns() (core/clock.hpp) at the middle of the request's round trip
  uint64_t backlog_bytes = 0;
  uint32_t backlog_packets = 0;
  uint64_t drops = 0;
  uint64_t overlimits = 0;
  uint64_t sent_bytes = 0;
  uint64_t sent_packets = 0;

  bool operator==(const QdiscSample&) const = default;
};

}  // namespace dlcnet::fabric
