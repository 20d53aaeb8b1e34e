#include "trace/chakra/chakra_groups.hpp"

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "core/error.hpp"
#include "core/json_file.hpp"

namespace dlcnet::trace::chakra {
namespace {

using nlohmann::json;

// One definition before it is checked against the job.
struct Definition {
  std::string name;
  std::vector<int64_t> ranks;  // empty: every rank
  std::optional<int64_t> size;
  std::string origin;
  std::string file;  // where a problem is reported
};

void report(Diagnostics& diag, Problem p, std::string_view file, const std::string& what) {
  if (diag.wants(p)) {
    diag.add(p, file, 0, what);
  } else {
    diag.count(p);
  }
}

// The end of the JSON value that starts at text[begin] ('[' or '{'): brackets counted outside
// double-quoted strings. npos when it does not close.
size_t value_end(std::string_view text, size_t begin) {
  int depth = 0;
  bool quoted = false;
  for (size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// Collects the objects naming a pg_name found in `v`: PyTorch writes the configuration as a
// JSON list; Chakra's converters keep it as text inside the node's inputs, which may wrap it in
// lists or in a JSON string.
void collect(const json& v, std::vector<const json*>& out, std::deque<json>& parsed, int depth) {
  if (depth > 8) return;
  if (v.is_object() && v.contains("pg_name")) {
    out.push_back(&v);
  } else if (v.is_array()) {
    for (const json& e : v) collect(e, out, parsed, depth + 1);
  } else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    json inner = json::parse(s, nullptr, false);
    if (!inner.is_discarded()) {
      parsed.push_back(std::move(inner));
      collect(parsed.back(), out, parsed, depth + 1);
    }
  }
}

// The text as JSON; a Python repr of a list holding the JSON text (['[{"pg_name": ...}]']) is
// read from its first "[{" to the bracket that closes it.
json parse_values(std::string_view text) {
  json v = json::parse(text, nullptr, false);
  if (!v.is_discarded()) return v;
  const size_t begin = text.find("[{");
  if (begin == std::string_view::npos) return v;
  const size_t end = value_end(text, begin);
  if (end == std::string_view::npos) return v;
  return json::parse(text.substr(begin, end - begin), nullptr, false);
}

std::optional<int64_t> integer(const json& v) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    if (u <= static_cast<uint64_t>(INT64_MAX)) return static_cast<int64_t>(u);
  }
  return std::nullopt;
}

// A group's fields; false with `error` naming the field.
bool read_group(const json& g, Definition& d, std::string& error) {
  const json& name = g.at("pg_name");
  if (name.is_string()) {
    d.name = name.get<std::string>();
  } else if (const auto n = integer(name)) {
    d.name = std::to_string(*n);
  } else {
    error = "field 'pg_name': not a string or an integer";
    return false;
  }
  if (d.name.empty()) {
    error = "field 'pg_name': empty (the whole world needs no definition)";
    return false;
  }
  const auto ranks = g.find("ranks");
  if (ranks == g.end() || !ranks->is_array()) {
    error = "group '" + d.name + "': field 'ranks': missing or not a list of ranks";
    return false;
  }
  for (const json& r : *ranks) {
    const auto v = integer(r);
    if (!v) {
      error = "group '" + d.name + "': field 'ranks': " + r.dump() + " is not a rank";
      return false;
    }
    d.ranks.push_back(*v);
  }
  const auto size = g.find("group_size");
  if (size != g.end()) {
    d.size = integer(*size);
    if (!d.size) {
      error = "group '" + d.name + "': field 'group_size': not an integer";
      return false;
    }
  }
  return true;
}

void from_files(const Job& job, std::vector<Definition>& defs, Diagnostics& diag) {
  for (const Rank& r : job.ranks) {
    for (const GroupDefinition& gd : r.group_definitions) {
      const std::string where = describe(r.nodes[gd.node]);
      std::deque<json> parsed;  // stable addresses: `groups` points into them
      std::vector<const json*> groups;
      const json v = parse_values(gd.values);
      if (!v.is_discarded()) collect(v, groups, parsed, 0);
      if (groups.empty()) {
        report(diag, Problem::kInconsistentJob, r.file,
               where +
                   ": field 'inputs': no process group (a JSON list of objects with "
                   "pg_name and ranks) in its values");
        continue;
      }
      for (const json* g : groups) {
        Definition d;
        d.origin = r.file + ": " + where;
        d.file = r.file;
        std::string error;
        if (read_group(*g, d, error)) {
          defs.push_back(std::move(d));
        } else {
          report(diag, Problem::kInconsistentJob, r.file, where + ": field 'inputs': " + error);
        }
      }
    }
  }
}

void from_comm_groups_file(const std::string& path, std::vector<Definition>& defs,
                           Diagnostics& diag) {
  json doc;
  try {
    doc = read_json_file(path, "ASTRA-sim's communicator groups ({\"<pg_name>\": [ranks...]})");
  } catch (const Error& e) {
    report(diag, Problem::kIo, path, e.what());
    return;
  }
  if (!doc.is_object()) {
    report(diag, Problem::kInconsistentJob, path,
           "--comm-groups: not a JSON object of groups ({\"<pg_name>\": [ranks...], ...})");
    return;
  }
  for (const auto& [name, ranks] : doc.items()) {
    Definition d;
    d.origin = "--comm-groups " + path;
    d.file = path;
    std::string error;
    if (read_group(json{{"pg_name", name}, {"ranks", ranks}}, d, error)) {
      defs.push_back(std::move(d));
    } else {
      report(diag, Problem::kInconsistentJob, path, "--comm-groups: " + error);
    }
  }
}

// A definition's ranks as a group of this job; false with the problem reported.
bool to_group(const Job& job, const Definition& d, Group& out, Diagnostics& diag) {
  out.origin = d.origin;
  const std::string what = d.origin + ": group '" + d.name + "': field '";
  if (d.ranks.empty()) {
    for (int32_t r = 0; r < job.world; ++r) out.ranks.push_back(r);
  }
  for (const int64_t r : d.ranks) {
    if (r < 0 || r >= job.world) {
      report(diag, Problem::kInconsistentJob, d.file,
             what + "ranks': rank " + std::to_string(r) + " is not a rank of this job (0 to " +
                 std::to_string(job.world - 1) + ")");
      return false;
    }
    if (std::find(out.ranks.begin(), out.ranks.end(), r) != out.ranks.end()) {
      report(diag, Problem::kInconsistentJob, d.file,
             what + "ranks': rank " + std::to_string(r) + " appears twice");
      return false;
    }
    out.ranks.push_back(static_cast<int32_t>(r));
  }
  if (d.size && *d.size != static_cast<int64_t>(out.ranks.size())) {
    report(diag, Problem::kInconsistentJob, d.file,
           what + "group_size': " + std::to_string(*d.size) + ", but the group has " +
               std::to_string(out.ranks.size()) + " ranks");
    return false;
  }
  return true;
}

void check_collectives(const Job& job, Diagnostics& diag) {
  for (const Rank& r : job.ranks) {
    for (const Node& n : r.nodes) {
      if (n.type != NodeType::kCommColl || n.pg_name().empty()) continue;
      const auto g = job.groups.find(n.pg_name());
      if (g == job.groups.end()) {
        report(diag, Problem::kInconsistentJob, r.file,
               describe(n) + ": field 'pg_name': process group '" + std::string(n.pg_name()) +
                   "' is not defined (no '## process_group:init ##' node of the job and no "
                   "--comm-groups file names it)");
      } else if (std::find(g->second.ranks.begin(), g->second.ranks.end(), r.rank) ==
                 g->second.ranks.end()) {
        report(diag, Problem::kInconsistentJob, r.file,
               describe(n) + ": field 'pg_name': rank " + std::to_string(r.rank) +
                   " is not a member of process group '" + std::string(n.pg_name()) + "' (" +
                   g->second.origin + ")");
      }
    }
  }
}

}  // namespace

bool is_group_definition(std::string_view node_name) noexcept {
  return node_name.find("process_group:init") != std::string_view::npos;
}

void resolve_groups(Job& job, const std::string& comm_groups_file, Diagnostics& diag) {
  std::vector<Definition> defs;
  from_files(job, defs, diag);
  if (!comm_groups_file.empty()) from_comm_groups_file(comm_groups_file, defs, diag);
  for (const Definition& d : defs) {
    Group g;
    if (!to_group(job, d, g, diag)) continue;
    const auto [it, fresh] = job.groups.try_emplace(d.name, g);
    if (!fresh && it->second.ranks != g.ranks) {
      report(diag, Problem::kInconsistentJob, d.file,
             d.origin + ": group '" + d.name + "': field 'ranks': other ranks than " +
                 it->second.origin + " gives it");
    }
  }
  check_collectives(job, diag);
}

std::vector<int32_t> group_ranks(const Job& job, std::string_view pg_name) {
  if (!pg_name.empty()) {
    const auto g = job.groups.find(pg_name);
    return g == job.groups.end() ? std::vector<int32_t>{} : g->second.ranks;
  }
  std::vector<int32_t> world(static_cast<size_t>(std::max(job.world, 0)));
  for (size_t r = 0; r < world.size(); ++r) world[r] = static_cast<int32_t>(r);
  return world;
}

namespace {

// r's place in n's group and the group's ranks; place -1 when r is not a member.
std::pair<int32_t, std::vector<int32_t>> place(const Job& job, const Rank& r, const Node& n) {
  std::vector<int32_t> ranks = group_ranks(job, n.pg_name());
  const auto me = std::find(ranks.begin(), ranks.end(), r.rank);
  return {me == ranks.end() ? -1 : static_cast<int32_t>(me - ranks.begin()), std::move(ranks)};
}

}  // namespace

std::vector<uint32_t> group_collectives(const Rank& r, std::string_view pg) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < r.nodes.size(); ++i) {
    if (r.nodes[i].type == NodeType::kCommColl && r.nodes[i].pg_name() == pg) out.push_back(i);
  }
  return out;
}

std::vector<Step> collective_steps(const Job& job, const Rank& r, const Node& n,
                                   const CollectiveOptions& options) {
  const auto [me, ranks] = place(job, r, n);
  if (me < 0) return {};
  std::vector<Step> out =
      steps(n.collective, n.size, static_cast<int32_t>(ranks.size()), me, options);
  for (Step& s : out) s.peer = ranks[static_cast<size_t>(s.peer)];
  return out;
}

Traffic collective_traffic(const Job& job, const Rank& r, const Node& n,
                           const CollectiveOptions& options) {
  const auto [me, ranks] = place(job, r, n);
  if (me < 0) return {};
  return expand(n.collective, n.size, static_cast<int32_t>(ranks.size()), me, options);
}

int32_t smallest_rooted_group(const Job& job) {
  int32_t smallest = INT32_MAX;
  for (const Rank& r : job.ranks) {
    for (const Node& n : r.nodes) {
      if (n.type != NodeType::kCommColl) continue;
      switch (n.collective) {
        case Collective::kBroadcast:
        case Collective::kReduce:
        case Collective::kGather:
        case Collective::kScatter: {
          const auto g = job.groups.find(n.pg_name());
          const int32_t size = n.pg_name().empty() || g == job.groups.end()
                                   ? job.world
                                   : static_cast<int32_t>(g->second.ranks.size());
          smallest = std::min(smallest, size);
          break;
        }
        default:
          break;
      }
    }
  }
  return smallest;
}

}  // namespace dlcnet::trace::chakra
