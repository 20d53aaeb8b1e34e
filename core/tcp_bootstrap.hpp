// Bootstrap over TCP for real runs: rank 0 is the coordinator, every other rank connects to it
// (a star), and collectives are gathered and redistributed by rank 0. Two ranks (a dlc-bench
// server and client) and hundreds (a replay) use the same code.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/bootstrap.hpp"
#include "core/deadline.hpp"
#include "core/wire.hpp"

namespace dlcnet {

struct Frame;

// Frames this rank sent and received over the bootstrap (join and collectives): rank 0 handles
// a constant number per other rank and collective, so its count grows linearly with the ranks,
// and so do the bytes it receives in an allgather.
struct BootstrapTraffic {
  uint64_t frames_sent = 0;
  uint64_t frames_received = 0;
  uint64_t bytes_received = 0;  // frames' headers included
};

struct TcpBootstrapConfig {
  int rank = 0;
  int size = 2;
  std::string coordinator_host;  // ignored by rank 0
  uint16_t port = 18515;         // rank 0 listens here; 0 = any free port (tests)
  std::string bind_host = "0.0.0.0";
  uint64_t job_token = 0;  // ranks with another token are turned away, not joined
  std::chrono::milliseconds join_timeout{30000};
  std::chrono::milliseconds op_timeout{60000};
  // Rank 0 turns away a connection that has not said hello within this long.
  std::chrono::milliseconds hello_timeout{5000};
  // Settling a failure (settle_failure): rank 0 gathers the others' reports this long (twice
  // when a rank seems frozen); the others wait this long for its verdict. The job sets both
  // from its --timeout (core/stop_budget.hpp).
  std::chrono::milliseconds report_window{1000};
  std::chrono::milliseconds verdict_wait{4000};
  uint16_t wire_version = kWireVersion;  // only tests speak another version
};

class TcpBootstrap : public Bootstrap {
 public:
  // Rank 0: binds immediately (so port() is known), then waits for the others in join().
  explicit TcpBootstrap(TcpBootstrapConfig cfg);
  ~TcpBootstrap() override;
  // Blocks until every rank has joined; throws TimeoutError naming the missing ranks.
  void join();
  uint16_t port() const noexcept;
  BootstrapTraffic traffic() const noexcept;
  // The step of the job this rank is in ("connect", "run", ...): failure verdicts and reports
  // name it.
  void set_phase(std::string phase);

  int rank() const noexcept override { return cfg_.rank; }
  int size() const noexcept override { return cfg_.size; }
  std::vector<Bytes> alltoall(const std::vector<Bytes>& to_each) override;
  std::vector<Bytes> allgather(const Bytes& mine) override;
  void barrier() override;
  void check_peers() override;
  std::string settle_failure(const std::string& mine,
                             const std::vector<int>& waited_on = {}) noexcept override;

 private:
  // Rank 0: accepts the other ranks' connections and hellos, all at once (one poll() loop: a
  // connection that is slow to say hello holds up no other), until every rank joined.
  void accept_ranks(Deadline deadline);
  // The other ranks: sends `row` to rank 0 and returns its answer (`size()` blobs).
  std::vector<Bytes> via_root(uint64_t round, const std::vector<Bytes>& row, Deadline deadline);
  // Rank 0: every rank's row of `count` blobs, by rank (its own: `own`).
  std::vector<std::vector<Bytes>> gather_rows(uint64_t round, size_t count, std::vector<Bytes> own,
                                              Deadline deadline);
  // Rank 0: frames[r] (whole frames, header included) to every other rank r, all at once.
  void fan_out(const std::vector<const Bytes*>& frames, Deadline deadline);
  // Rank 0: tells every other rank that `dead` is gone, then throws Error(reason).
  [[noreturn]] void abort_job(int dead, const std::string& reason);
  // Others: rank 0's verdict arrived (a kAbort frame): remembers it and throws it.
  [[noreturn]] void throw_verdict(const Frame& abort);
  // Rank 0: `rank` reported its failure (a kFailed frame): remembers it and throws it.
  [[noreturn]] void throw_report(int rank, const Frame& failed);
  // Rank 0: the job's cause of failure to every rank still connected (best effort).
  void broadcast_verdict(const std::string& cause) noexcept;
  std::string root_verdict(const std::string& mine, const std::vector<int>& waited_on);
  std::string await_verdict(const std::string& mine, const std::vector<int>& waited_on);
  struct Impl;
  TcpBootstrapConfig cfg_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dlcnet
