#include "core/memory_budget.hpp"

#include <unistd.h>

#include <cstdio>
#include <limits>

#include "core/error.hpp"
#include "core/units.hpp"

namespace dlcnet {
namespace {

std::string gib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / double(1ull << 30));
  return buf;
}

}  // namespace

uint64_t host_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

void check_fits_in_memory(uint64_t count, uint64_t item_bytes, const std::string& what,
                          const std::string& fix) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const uint64_t bytes = item_bytes != 0 && count > max / item_bytes ? max : count * item_bytes;
  const uint64_t host = host_memory_bytes();
  if (host == 0 || bytes <= host) return;
  throw Error(what + " would need " +
              (bytes == max ? std::string("more than 16 EiB") : gib(bytes) + " GiB") +
              ", more than this host's " + gib(host) + " GiB of memory" +
              (fix.empty() ? "" : ": " + fix));
}

void check_registered_memory(uint64_t bytes, int rank, int ranks_on_host, const std::string& detail,
                             const std::string& fix) {
  const uint64_t host = host_memory_bytes();
  const uint64_t ranks = static_cast<uint64_t>(ranks_on_host < 1 ? 1 : ranks_on_host);
  if (host == 0 || bytes <= host / 2 / ranks) return;
  throw Error("rank " + std::to_string(rank) + " needs " + format_size(bytes) +
              " of registered memory (" + detail + "); with " + std::to_string(ranks) +
              (ranks == 1 ? " rank" : " ranks") + " on this host that is over half of its " +
              format_size(host) + ": " + fix);
}

}  // namespace dlcnet
