// Process groups of a Chakra job (docs/chakra.md, "Process groups"): a collective's pg_name
// names the ranks it runs among. Their definitions come from the job's files (the inputs of a
// METADATA_NODE `## process_group:init ##`, PyTorch's process-group configuration: a JSON list
// of {"pg_name", "ranks", "group_size", ...}, "ranks" empty for a group of every rank) or from
// ASTRA-sim's communicator-group file ({"<pg_name>": [ranks...], ...}, --comm-groups).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/chakra/chakra_collectives.hpp"
#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// Whether a METADATA_NODE of this name defines process groups.
bool is_group_definition(std::string_view node_name) noexcept;

// Fills job.groups from every file's definitions and from `comm_groups_file` (none when empty),
// then checks every collective's pg_name: a group that is defined, of which the file's rank is
// a member. Problems name the file, the node (or the group file's key) and the field; two
// definitions of one pg_name with other ranks are an error naming both.
void resolve_groups(Job& job, const std::string& comm_groups_file, Diagnostics& diag);

// The ranks of the group `pg_name` in group order: 0..world-1 for "" (the whole world); none
// for a group the job does not define (resolve_groups reported it).
std::vector<int32_t> group_ranks(const Job& job, std::string_view pg_name);

// The positions of rank r's collectives of group `pg` ("" the whole world), in file order: the
// k-th of every member meets the k-th of the others.
std::vector<uint32_t> group_collectives(const Rank& r, std::string_view pg);

// Rank r's steps in its collective node n, among the ranks of n's group (steps() of the rank's
// place in the group, each peer its world rank); options.root is a group rank (the group's
// options.root-th rank). Empty when r is not a member.
std::vector<Step> collective_steps(const Job& job, const Rank& r, const Node& n,
                                   const CollectiveOptions& options);
// The sums of collective_steps().
Traffic collective_traffic(const Job& job, const Rank& r, const Node& n,
                           const CollectiveOptions& options);
// The size of the smallest group a rooted collective (broadcast, reduce, gather, scatter) runs
// in, for checking a --root: INT32_MAX when the job has none.
int32_t smallest_rooted_group(const Job& job);

}  // namespace dlcnet::trace::chakra
