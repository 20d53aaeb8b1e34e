#include "launch/rank_env.hpp"

#include <charconv>
#include <cstdlib>

#include "core/error.hpp"

namespace dlcnet {
namespace {

int to_int(const std::string& text, const char* what) {
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) {
    throw Error(std::string(what) + ": '" + text + "' is not an integer");
  }
  return v;
}

std::optional<int> env_int(const EnvLookup& env, const char* name) {
  if (auto v = env(name)) return to_int(*v, name);
  return std::nullopt;
}

uint16_t port_for(std::string_view job_id) {
  return static_cast<uint16_t>(kPortBase + stable_hash(job_id) % kPortSpan);
}

// "1616314368.0;tcp://192.0.2.2:41177;tcp6://[fd00::2]:45727" -> "192.0.2.2".
std::string host_of_hnp_uri(const std::string& uri) {
  const auto at = uri.find("tcp://");
  if (at == std::string::npos) return {};
  const auto start = at + 6;
  const auto end = uri.find_first_of(":;,", start);
  return uri.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

struct Launcher {
  std::string source;
  int rank = 0;
  int size = 0;
  std::string job_id;
  std::string host;  // coordinator host, "" when unknown
  std::string host_from;
};

std::optional<Launcher> detect_launcher(const EnvLookup& env) {
  Launcher l;
  if (auto r = env_int(env, "OMPI_COMM_WORLD_RANK")) {
    l.source = "open-mpi";
    l.rank = *r;
    l.size = env_int(env, "OMPI_COMM_WORLD_SIZE").value_or(0);
    l.job_id = env("OMPI_MCA_ess_base_jobid").value_or(env("PMIX_NAMESPACE").value_or(""));
    const int local = env_int(env, "OMPI_COMM_WORLD_LOCAL_SIZE").value_or(0);
    const int nodes = env_int(env, "OMPI_MCA_orte_num_nodes").value_or(0);
    if (local == l.size || nodes == 1) {
      l.host = "127.0.0.1";
      l.host_from = "all ranks on this host (OMPI_COMM_WORLD_LOCAL_SIZE)";
    } else if (auto uri = env("OMPI_MCA_orte_hnp_uri")) {
      // mpirun's own host: rank 0 runs there when mpirun's host is the first of the job's.
      l.host = host_of_hnp_uri(*uri);
      l.host_from = "mpirun's host (OMPI_MCA_orte_hnp_uri)";
    }
    return l;
  }
  if (auto r = env_int(env, "PMI_RANK")) {
    l.source = "pmi";
    l.rank = *r;
    l.size = env_int(env, "PMI_SIZE").value_or(0);
    const auto port = env("PMI_PORT");
    l.job_id = "pmi:" + port.value_or("") + ":" + env("PMI_JOBID").value_or("");
    if (env_int(env, "MPI_LOCALNRANKS").value_or(0) == l.size) {
      l.host = "127.0.0.1";
      l.host_from = "all ranks on this host (MPI_LOCALNRANKS)";
    } else if (port) {
      l.host = port->substr(0, port->rfind(':'));
      l.host_from = "the launcher's host (PMI_PORT)";
    }
    return l;
  }
  if (auto r = env_int(env, "SLURM_PROCID")) {
    l.source = "slurm";
    l.rank = *r;
    l.size = env_int(env, "SLURM_NTASKS").value_or(env_int(env, "SLURM_NPROCS").value_or(0));
    l.job_id = env("SLURM_JOB_ID").value_or("") + "." + env("SLURM_STEP_ID").value_or("");
    auto list = env("SLURM_STEP_NODELIST");
    const char* var = "SLURM_STEP_NODELIST";
    if (!list) {
      list = env("SLURM_JOB_NODELIST");
      var = "SLURM_JOB_NODELIST";
    }
    if (list) {
      const auto hosts = expand_hostlist(*list);
      if (!hosts.empty()) {
        l.host = hosts.front();
        l.host_from = std::string("first host of ") + var;
      }
    }
    return l;
  }
  return std::nullopt;
}

}  // namespace

EnvLookup process_env() {
  return [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

uint64_t stable_hash(std::string_view text) noexcept {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : text) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::pair<std::string, uint16_t> parse_host_port(std::string_view text, std::string_view what) {
  const auto colon = text.rfind(':');
  auto bad = [&](const char* why) {
    return Error(std::string(what) + ": '" + std::string(text) + "' " + why + " (want HOST:PORT)");
  };
  if (colon == std::string_view::npos || colon == 0) throw bad("has no host and port");
  std::string_view host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string_view port_text = text.substr(colon + 1);
  unsigned port = 0;
  auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || p != port_text.data() + port_text.size() || port > 65535) {
    throw bad("has no valid port");
  }
  return {std::string(host), static_cast<uint16_t>(port)};
}

std::vector<std::string> expand_hostlist(std::string_view list) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < list.size()) {
    // One item: prefix[ranges]suffix up to a comma outside brackets.
    size_t end = i;
    int depth = 0;
    for (; end < list.size(); ++end) {
      if (list[end] == '[') ++depth;
      if (list[end] == ']' && --depth < 0) break;
      if (list[end] == ',' && depth == 0) break;
    }
    if (depth != 0) throw Error("hostlist '" + std::string(list) + "': unbalanced brackets");
    const std::string_view item = list.substr(i, end - i);
    i = end + 1;
    if (item.empty()) continue;
    const auto open = item.find('[');
    if (open == std::string_view::npos) {
      if (out.size() >= kMaxHostlistHosts) {
        throw Error("hostlist: more than " + std::to_string(kMaxHostlistHosts) + " hosts");
      }
      out.emplace_back(item);
      continue;
    }
    const auto close = item.find(']', open);
    const std::string prefix(item.substr(0, open));
    const std::string_view ranges = item.substr(open + 1, close - open - 1);
    // The suffix may itself hold brackets ("a[1-2]b[3-4]"): expand it recursively.
    const std::vector<std::string> suffixes = close + 1 < item.size()
                                                  ? expand_hostlist(item.substr(close + 1))
                                                  : std::vector<std::string>{""};
    size_t r = 0;
    while (r <= ranges.size()) {
      auto comma = ranges.find(',', r);
      if (comma == std::string_view::npos) comma = ranges.size();
      const std::string_view range = ranges.substr(r, comma - r);
      r = comma + 1;
      const auto dash = range.find('-');
      const std::string_view lo_text = range.substr(0, dash);
      const std::string_view hi_text =
          dash == std::string_view::npos ? lo_text : range.substr(dash + 1);
      unsigned long lo = 0, hi = 0;
      auto a = std::from_chars(lo_text.data(), lo_text.data() + lo_text.size(), lo);
      auto b = std::from_chars(hi_text.data(), hi_text.data() + hi_text.size(), hi);
      if (lo_text.empty() || hi_text.empty() || a.ec != std::errc() || b.ec != std::errc() ||
          a.ptr != lo_text.data() + lo_text.size() || b.ptr != hi_text.data() + hi_text.size() ||
          hi < lo || hi - lo > 100000) {
        throw Error("hostlist '" + std::string(list) + "': bad range '" + std::string(range) + "'");
      }
      const size_t width = lo_text.size();  // "01-03": zero padding kept
      // Bounded before anything is built (found by tests/fuzz/fuzz_units: a product of
      // ranges ran for minutes and gigabytes).
      if ((hi - lo + 1) * suffixes.size() > kMaxHostlistHosts - out.size()) {
        throw Error("hostlist '" + std::string(list).substr(0, 80) + "': more than " +
                    std::to_string(kMaxHostlistHosts) + " hosts");
      }
      for (unsigned long v = lo; v <= hi; ++v) {
        std::string num = std::to_string(v);
        if (num.size() < width) num.insert(0, width - num.size(), '0');
        for (const auto& s : suffixes) out.push_back(prefix + num + s);
      }
    }
  }
  return out;
}

std::optional<RankEnv> resolve_rank_env(const ExplicitRank& given, const EnvLookup& env) {
  const std::optional<Launcher> launcher = detect_launcher(env);
  if (!given.rank && !launcher) return std::nullopt;
  RankEnv e;
  e.source = given.rank ? "options" : launcher->source;
  e.rank = given.rank ? *given.rank : launcher->rank;
  if (given.world_size) {
    e.world_size = *given.world_size;
  } else if (launcher && launcher->size > 0) {
    e.world_size = launcher->size;
  } else {
    throw Error("--rank needs --world-size (no launcher environment gives one)");
  }
  if (e.world_size < 1) throw Error("world size must be at least 1");
  if (e.rank < 0 || e.rank >= e.world_size) {
    throw Error("rank " + std::to_string(e.rank) + " is outside the world of " +
                std::to_string(e.world_size) + " ranks (from " + e.source + ")");
  }
  const std::string job_id = launcher ? launcher->source + ":" + launcher->job_id : "";
  std::string coordinator = given.coordinator;
  if (coordinator.empty()) {
    if (auto c = env("DLCNET_COORDINATOR")) {
      coordinator = *c;
      e.coordinator_from = "DLCNET_COORDINATOR";
    }
  } else {
    e.coordinator_from = "--coordinator";
  }
  if (!coordinator.empty()) {
    // A bare host takes the job's derived port.
    if (coordinator.find(':') == std::string::npos || coordinator.back() == ']') {
      coordinator += ":" + std::to_string(port_for(job_id));
    }
    auto [host, port] = parse_host_port(coordinator, e.coordinator_from);
    e.coordinator_host = host;
    e.port = port;
  } else if (launcher && given.rank) {
    throw Error("--rank given without --coordinator HOST:PORT");
  } else if (launcher) {
    if (launcher->host.empty()) {
      throw Error(launcher->source +
                  " gives rank and size but no way to find rank 0's host: pass --coordinator "
                  "HOST:PORT or set DLCNET_COORDINATOR (mpirun -x DLCNET_COORDINATOR=...)");
    }
    e.coordinator_host = launcher->host;
    e.port = port_for(job_id);
    e.coordinator_from = launcher->host_from;
  } else if (e.world_size == 1) {
    e.coordinator_host = "127.0.0.1";
    e.port = 0;
    e.coordinator_from = "single rank";
  } else {
    throw Error("--rank given without --coordinator HOST:PORT");
  }
  if (given.job_token) {
    e.job_token = *given.job_token;
    e.token_from = "--job-token";
  } else if (auto t = env("DLCNET_JOB_TOKEN")) {
    // hash("") would be one more token that anyone can compute.
    if (t->empty())
      throw Error("DLCNET_JOB_TOKEN is set but empty: give it a secret (any text) or unset it");
    e.job_token = stable_hash(*t);
    e.token_from = "DLCNET_JOB_TOKEN";
  } else {
    // Every rank of one launch derives the same token; another launch derives another. Anyone
    // who can see the job id (or the coordinator's address) derives it too: token_note().
    e.token_derived = true;
    if (job_id.empty()) {
      e.token_from = "the coordinator's address";
      e.job_token = stable_hash("dlcnet:" + e.coordinator_host + ":" + std::to_string(e.port) +
                                ":" + std::to_string(e.world_size));
    } else {
      e.token_from = "the launcher's job id (" + launcher->source + ")";
      e.job_token = stable_hash(job_id);
    }
  }
  return e;
}

std::optional<std::string> token_note(const RankEnv& env) {
  if (!env.token_derived || env.rank != 0 || env.world_size < 2) return std::nullopt;
  return "the job token is derived from " + env.token_from +
         ", which anyone who can see the job can compute: set a secret one in every rank's "
         "environment, DLCNET_JOB_TOKEN (mpirun -x DLCNET_JOB_TOKEN=..., srun "
         "--export=ALL,DLCNET_JOB_TOKEN=..., or exported before srun), or pass --job-token";
}

std::string rank_path(const std::string& path, int rank, int world_size) {
  const std::string r = std::to_string(rank);
  if (auto at = path.find("%r"); at != std::string::npos) {
    return path.substr(0, at) + r + path.substr(at + 2);
  }
  if (world_size <= 1) return path;
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
      dot == (slash == std::string::npos ? 0 : slash + 1)) {
    return path + ".rank" + r;
  }
  return path.substr(0, dot) + ".rank" + r + path.substr(dot);
}

}  // namespace dlcnet
