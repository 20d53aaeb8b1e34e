#include "launch/rank_cpu.hpp"

#include "core/log_line.hpp"

namespace dlcnet {

CpuBinding bind_rank_thread(const std::string& spec, const TransportChoice& choice, unsigned slot,
                            unsigned host_ranks, const std::string& who, bool quiet) {
  CpuBinding b = bind_this_thread(parse_cpu_request(spec), choice.device(), slot, host_ranks);
  if (!quiet) log_line(who + ": cpu " + b.summary());
  return b;
}

}  // namespace dlcnet
