#include "launch/rank_cpu.hpp"

#include <iostream>

namespace dlcnet {

CpuBinding bind_rank_thread(const std::string& spec, const TransportChoice& choice, unsigned slot,
                            const std::string& who, bool quiet) {
  CpuBinding b = bind_this_thread(parse_cpu_request(spec), choice.device(), slot);
  if (!quiet) std::cerr << who << ": cpu " << b.summary() << '\n';
  return b;
}

}  // namespace dlcnet
