// The checks of what the replay of a Chakra job can carry (chakra_plan.hpp).
#include <climits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "replay/chakra_plan.hpp"
#include "trace/chakra/chakra_groups.hpp"

namespace dlcnet::replay {

namespace ck = trace::chakra;

namespace {

[[noreturn]] void refuse(const ck::Rank& r, const ck::Node& n, const std::string& what) {
  throw Error(ck::node_error(r, n, what));
}

// Every member of group `pg` holds the same collectives in it as its first member: count,
// comm_type and comm_size, in file order.
void check_group(const ck::Job& job, const std::string& pg) {
  const std::vector<int32_t> ranks = ck::group_ranks(job, pg);
  if (ranks.empty()) return;
  const std::string group = pg.empty() ? "the whole world" : "process group '" + pg + "'";
  const ck::Rank& r0 = job.ranks[static_cast<size_t>(ranks.front())];
  const std::string first = "rank " + std::to_string(r0.rank);
  const std::vector<uint32_t> c0 = ck::group_collectives(r0, pg);
  for (const int32_t rank : ranks) {
    const ck::Rank& r = job.ranks[static_cast<size_t>(rank)];
    const std::vector<uint32_t> cs = ck::group_collectives(r, pg);
    for (size_t k = 0; k < cs.size(); ++k) {
      const ck::Node& n = r.nodes[cs[k]];
      const std::string nth = "collective number " + std::to_string(k + 1) + " of " + group;
      if (k >= c0.size()) {
        refuse(r, n,
               "field 'comm_type': " + nth + " on this rank, but " + first + " (" + r0.file +
                   ") has " + std::to_string(c0.size()) +
                   ": every member takes part in every collective of its group");
      }
      const ck::Node& m = r0.nodes[c0[k]];
      const std::string theirs = " (" + ck::where(r0, m) + ")";
      if (n.collective != m.collective) {
        refuse(r, n,
               "field 'comm_type': " + std::string(ck::collective_name(n.collective)) + ", but " +
                   nth + " on " + first + " is " + std::string(ck::collective_name(m.collective)) +
                   theirs);
      }
      if (n.size != m.size) {
        refuse(r, n,
               "field 'comm_size': " + std::to_string(n.size) + " B, but " + nth + " on " + first +
                   " has " + std::to_string(m.size) + " B" + theirs);
      }
    }
    if (cs.size() < c0.size()) {
      refuse(r0, r0.nodes[c0[cs.size()]],
             "field 'comm_type': collective number " + std::to_string(cs.size() + 1) + " of " +
                 group + " on " + first + ", but rank " + std::to_string(r.rank) + " (" + r.file +
                 ") has " + std::to_string(cs.size()) +
                 ": every member takes part in every collective of its group");
    }
  }
}

}  // namespace

void check_chakra_job_options(const std::string& map_spec, uint32_t iterations) {
  if (!map_spec.empty()) throw Error("--map: a Chakra job's rank r is the file of rank r");
  if (iterations != 0) {
    throw Error("--iterations: a Chakra job has no iterations to cut or loop; it is replayed once");
  }
}

void check_chakra_root(const ck::Job& job, int32_t root) {
  if (root < 0 || root >= job.world) {
    throw Error("--root " + std::to_string(root) + ": the job has ranks 0 to " +
                std::to_string(job.world - 1));
  }
  const int32_t smallest = ck::smallest_rooted_group(job);
  if (root >= smallest) {
    throw Error("--root " + std::to_string(root) +
                ": a root is a rank of the collective's group, and the smallest group a rooted "
                "collective runs in has " +
                std::to_string(smallest) + " ranks (group ranks 0 to " +
                std::to_string(smallest - 1) + ")");
  }
}

void check_chakra_replayable(const ck::Job& job, const ck::CollectiveOptions& coll) {
  if (job.ranks.empty()) throw Error("the Chakra job has no rank");
  check_chakra_root(job, coll.root);
  for (const ck::Rank& r : job.ranks) {
    for (const ck::Node& n : r.nodes) {
      if (n.id > static_cast<uint64_t>(INT32_MAX)) {
        refuse(r, n,
               "field 'id': " + std::to_string(n.id) +
                   " is above 2^31-1: the replay's records name a message by its sending "
                   "node's id as an int32");
      }
    }
  }
  check_group(job, "");
  for (const auto& [pg, group] : job.groups) check_group(job, pg);
}

}  // namespace dlcnet::replay
