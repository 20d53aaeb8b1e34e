// The one rule for allocations sized by input (a trace's numbers, an option): check the bytes
// against the host's physical memory first, and refuse with a message naming what asked for
// them (file:line, or the option) instead of swapping for hours or dying of bad_alloc.
#pragma once

#include <cstdint>
#include <string>

namespace dlcnet {

// Physical memory of this host in bytes (sysconf); 0 when unknown.
uint64_t host_memory_bytes();

// Throws Error("<what> would need <N> GiB, more than this host's <M> GiB of memory[: <fix>]")
// when count * item_bytes (saturating) exceeds the host's physical memory.
void check_fits_in_memory(uint64_t count, uint64_t item_bytes, const std::string& what,
                          const std::string& fix = {});

// The rule for memory a rank registers with its transport (an N-rank pattern's buffers): every
// rank on this host registers as much, and all of them together may take at most half of its
// memory. Throws Error("rank R needs <N> of registered memory (<detail>); with K ranks on this
// host that is over half of its <M>: <fix>").
void check_registered_memory(uint64_t bytes, int rank, int ranks_on_host, const std::string& detail,
                             const std::string& fix);

}  // namespace dlcnet
