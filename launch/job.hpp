// The N-rank job layer: the life of one rank of a job, the same for every tool (dlc-replay,
// dlc-bench and the patterns to come). In order, each step a collective that every rank calls:
//   join     the TCP bootstrap (rank 0 coordinates) and learn every rank's host identity;
//   agree    on a fingerprint of what every rank is about to run (the ranks that differ named);
//   connect  the caller's transport to the peers the caller names;
//   clocks   aligned to rank 0's over that transport before the measured phase, with a bound;
//   release  the measured phase by a barrier, or at a common instant on rank 0's clock;
//   clocks   aligned again after it (drift), and the release each rank achieved, measured;
//   gather   each rank's results to rank 0; every rank exits with rank 0's verdict.
// Each step's time on this rank is kept (phases()) for the reports. A failure anywhere goes
// through settle_failure() so that every rank names the job's first cause.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock_sync.hpp"
#include "core/idle.hpp"
#include "core/release_report.hpp"
#include "core/stop_budget.hpp"
#include "core/tcp_bootstrap.hpp"
#include "core/transport.hpp"
#include "launch/rank_env.hpp"

namespace dlcnet {

struct JobConfig {
  int rank = 0;
  int world_size = 1;
  std::string
      coordinator_host;   // rank 0 listens on it when it is an address (coordinator_bind.hpp)
  std::string bind_host;  // rank 0 listens here; "": from coordinator_host (coordinator_bind.hpp)
  uint16_t port = 0;      // rank 0 listens here; 0: any free port
  uint64_t job_token = 0;
  std::string rank_source = "options";  // options, open-mpi, pmi, slurm, spawn
  // --timeout: once the job stops making progress, every rank has stopped within it. The join,
  // each clock ping-pong round and each bootstrap collective give up after its wait limit;
  // settling a failure fits in the rest (core/stop_budget.hpp).
  std::chrono::milliseconds timeout{30000};
  std::chrono::milliseconds op_timeout{0};  // each bootstrap collective; 0: `timeout`'s wait
  uint32_t clock_samples = 32;              // ping-pongs per rank and round
  uint16_t wire_version = kWireVersion;     // only tests speak another
};
JobConfig job_config(const RankEnv& env, std::chrono::milliseconds timeout);

// How long one step took on this rank.
struct PhaseTime {
  std::string name;  // join, agree, connect, clocks_before, release, run, clocks_after, gather
  double seconds = 0;
};

// Transports a rank waits on: spin unless told otherwise, or automatically yield once this
// host runs as many ranks as it has CPUs (spinners starve each other and Soft-RoCE's kernel
// threads), and block only where the transport can wait for events.
enum class IdlePolicy : uint8_t { automatic, spin, yield, sleep, block };
std::optional<IdlePolicy> idle_policy_from_string(std::string_view s) noexcept;

class Job {
 public:
  // Rank 0 binds the coordinator's port at once (port() is known from here on).
  explicit Job(JobConfig cfg);
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  // Waits for every rank (TimeoutError naming the missing ones) and exchanges host identities.
  void join();

  // Every rank's `fingerprint` must be equal, or Error: "rank 2 <one_differs>" or "ranks 1, 3
  // <many_differ>", followed, when `fields` are given (lines "OPTION VALUE" that the fingerprint
  // stands for), by the options that differ with both values: " (-n: 5 on rank 2, 10 here)".
  // Returns the smallest `limit` of all ranks (e.g. the largest message size every rank's
  // transport can carry).
  uint64_t agree(uint64_t fingerprint, uint64_t limit, std::string_view one_differs,
                 std::string_view many_differ, std::string_view fields = {});

  // Connects `t` to `peers` (Transport::connect over this job's bootstrap). `t` must outlive
  // verdict(), which disconnects it.
  void connect(Transport& t, std::span<const int> peers);

  Idle idle_for(IdlePolicy policy, const Transport& t) const;

  // Aligns the clocks over `t` (ping-pongs between rank 0 and every other rank; `region` holds
  // at least 8 bytes and nothing else uses it meanwhile). The first call is the round before
  // the measured phase, the second the round after.
  void align_clocks(Transport& t, RegionId region, Idle idle);

  // Starts the measured phase; returns the time it began on this rank's clock (now_ns()).
  // `instant` needs the round before.
  int64_t release(Release mode, Idle idle);

  // After the round after: every rank's release on rank 0's clock (a collective).
  ReleaseReport release_report();

  // Each rank's blob to rank 0. Rank 0 gets them by rank (its own included); others nothing.
  std::vector<Bytes> gather(const Bytes& mine);

  // Every rank returns rank 0's verdict as an exit code (0 when `ok` at rank 0, else 1), so
  // launchers (mpirun, srun) report a failed job from any rank. Then the transport connected
  // here disconnects while every peer still runs, and a barrier keeps each rank until all
  // have: no rank's endpoints wait at exit for a peer that already left.
  int verdict(bool ok);

  // This rank is failing: agrees with the others on the job's first cause (Bootstrap's),
  // which names the rank, the step under way ("rank 3 (...) is gone during run: ...") and why.
  // `waited_on`: the ranks this one ran out of time waiting for (stalled_on()).
  std::string settle_failure(const std::string& mine,
                             const std::vector<int>& waited_on = {}) noexcept;

  int rank() const noexcept { return cfg_.rank; }
  int size() const noexcept { return cfg_.world_size; }
  uint16_t port() const noexcept;
  const JobConfig& config() const noexcept { return cfg_; }
  Bootstrap& bootstrap() noexcept;
  const std::vector<HostIdentity>& hosts() const noexcept { return hosts_; }
  int ranks_on_this_host() const noexcept;
  // This rank's index among the ranks of its host (those below it there), after join().
  int slot_on_this_host() const noexcept;
  const ClockRound& clocks_before() const noexcept { return before_; }
  const ClockRound& clocks_after() const noexcept { return after_; }
  // After both rounds: every rank's clock on rank 0's.
  std::vector<ClockModel> clock_models() const;
  std::vector<ClockReport> clock_reports() const;
  // The steps so far, in order; "run" is the time from release() to the next align_clocks().
  const std::vector<PhaseTime>& phases() const noexcept { return phases_; }
  nlohmann::json phases_json() const;
  // One console line: "# job phases on rank 0: join 0.081 s, agree 0.014 s, ..., gather
  // 0.002 s (64 ranks; set-up 1.234 s)".
  std::string phases_line() const;
  // The reports' "setup" object, in seconds: every phase so far (join_s, agree_s, connect_s,
  // clocks_before_s, run_s, clocks_after_s, gather_s, ...), the set-up before the measured
  // phase (`setup_s`: join to the release) and after it (`wrapup_s`: clocks after, gather),
  // the ranks, and the bootstrap frames this rank handled (linear in the ranks at rank 0).
  nlohmann::json setup_json() const;

 private:
  // The bootstrap names the step under way in failure verdicts.
  void phase_begins(const char* name);
  void phase_done(const char* name, int64_t since_ns);
  // Seconds of the phases before "run" and after it.
  std::pair<double, double> around_run() const;

  JobConfig cfg_;
  StopBudget budget_;  // cfg_.timeout split into the waits and the settling
  std::unique_ptr<TcpBootstrap> boot_;
  std::vector<HostIdentity> hosts_;
  ClockRound before_, after_;
  int rounds_ = 0;
  Release release_mode_ = Release::barrier;
  int64_t released_at_ = 0;  // this rank's clock
  double target_ns_ = 0;     // instant: rank 0's clock
  double lead_ns_ = 0;
  std::vector<PhaseTime> phases_;
  Transport* connected_ = nullptr;  // connect()'s, until verdict() disconnects it
};

// A rank's whole life on the job layer: joins, runs `body` on the joined job and returns its
// exit code; an exception from `body` first agrees with the other ranks on the job's first
// cause (Job::settle_failure), so every rank names the rank that died rather than a survivor
// that exited a moment earlier because of it, and is thrown again as an Error with that text.
int run_job(const JobConfig& config, const std::function<int(Job&)>& body);

}  // namespace dlcnet
