// Who am I in a multi-process run: rank, world size, where the bootstrap coordinator listens
// and the job token, from (in order) explicit options, Open MPI's or PMI's environment, or
// Slurm's. Pure parsing over an environment lookup, so tests need no launcher.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlcnet {

// Returns the variable's value or nullopt when unset (tests pass a map, real runs getenv).
using EnvLookup = std::function<std::optional<std::string>(const char*)>;
EnvLookup process_env();

struct ExplicitRank {
  std::optional<int> rank;
  std::optional<int> world_size;
  std::string coordinator;  // "HOST:PORT", "" when not given
  std::optional<uint64_t> job_token;
};

struct RankEnv {
  int rank = 0;
  int world_size = 1;
  std::string coordinator_host;
  uint16_t port = 0;
  uint64_t job_token = 0;
  std::string source;            // "options", "open-mpi", "pmi", "slurm"
  std::string coordinator_from;  // how the coordinator was found, for the report
  // Where the job token came from: "--job-token", "DLCNET_JOB_TOKEN", or derived (guessable by
  // anyone who sees the job): "the launcher's job id", "the coordinator's address".
  std::string token_from;
  bool token_derived = false;
};

// The default port when a launcher gives none: derived from the launcher's job id so that two
// jobs on one host do not collide, in [kPortBase, kPortBase + kPortSpan): below Linux's
// ephemeral ports (32768-60999 by default), which the host's own outgoing connections take (a
// derived port of 33428 was once held by another test's connection: "Address already in use").
inline constexpr uint16_t kPortBase = 20000;
inline constexpr uint16_t kPortSpan = 12000;

// Resolves the rank environment. Explicit options win field by field over the launcher's.
// Returns nullopt when neither options nor a launcher give a rank; throws Error for
// inconsistent values (rank outside the world, a bad HOST:PORT, a launcher that names no
// coordinator, an empty DLCNET_JOB_TOKEN), naming the variable or option.
std::optional<RankEnv> resolve_rank_env(const ExplicitRank& given, const EnvLookup& env);

// Rank 0's one note when the job token is derived, not given (anyone who sees the launcher's job
// id or the coordinator's address can compute it and join in a rank's place): where it came
// from and how to set a secret one. nullopt for a given token, another rank, or one rank.
std::optional<std::string> token_note(const RankEnv& env);

// "HOST:PORT" (also "[v6]:PORT"). Throws Error naming `what` on a malformed value.
std::pair<std::string, uint16_t> parse_host_port(std::string_view text, std::string_view what);

// Slurm hostlist expansion: "node[01-03,7],gpu7" -> node01 node02 node03 node7 gpu7 (zero
// padding kept). Throws Error on unbalanced brackets, a bad range, or more than
// kMaxHostlistHosts names (ranges in brackets multiply: "a[0-6744]b[0-6744]" is 45 million).
inline constexpr size_t kMaxHostlistHosts = 65536;
std::vector<std::string> expand_hostlist(std::string_view list);

// FNV-1a of a string: stable across hosts and builds (std::hash is not).
uint64_t stable_hash(std::string_view text) noexcept;

// A per-rank output file: PATH with "%r" replaced by the rank, else ".rank<R>" inserted before
// the extension (PATH itself when there is one rank).
std::string rank_path(const std::string& path, int rank, int world_size);

}  // namespace dlcnet
