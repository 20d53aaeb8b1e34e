// Out-of-band channel between the ranks of one run: who am I, how many are we, and collective
// exchanges of small blobs (endpoint addresses, remote keys, clock samples).
#pragma once

#include <string>
#include <vector>

#include "core/bytes.hpp"

namespace dlcnet {

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;

  virtual int rank() const noexcept = 0;
  virtual int size() const noexcept = 0;

  // Collectives: every rank calls them in the same order. Each waits at most the bootstrap's
  // timeout and then throws TimeoutError naming the ranks that did not answer; a rank that
  // disconnects makes the others throw Error naming it.

  // to_each.size() == size(); to_each[r] goes to rank r (own entry ignored). Returns what each
  // rank sent to this one (own entry empty).
  virtual std::vector<Bytes> alltoall(const std::vector<Bytes>& to_each) = 0;
  // Returns every rank's blob, indexed by rank (own included).
  virtual std::vector<Bytes> allgather(const Bytes& mine) = 0;
  virtual void barrier() = 0;

  // Non-blocking liveness check for long runs between collectives: throws Error naming a rank
  // whose connection dropped (a killed process), so every rank stops within one check instead
  // of waiting out its timeouts. Cheap (one poll); call it every few milliseconds at most.
  virtual void check_peers() {}

  // This rank is failing with the error `mine`: agree with the others on the job's first cause
  // before exiting, so that a rank that fails because another one left names the rank that
  // left first (a killed process), not the survivor that exited a moment before it. Returns the
  // text to report: the cause, followed by `mine` when it differs. `waited_on`: the ranks this
  // one ran out of time waiting for (a StallError), if any: a rank that stopped without
  // leaving (frozen) is found by following these waits. Waits a few seconds at most and never
  // throws.
  virtual std::string settle_failure(const std::string& mine,
                                     const std::vector<int>& waited_on = {}) noexcept {
    (void)waited_on;
    return mine;
  }
};

}  // namespace dlcnet
