// --export-flows FILE: a run's messages (flows/flow.hpp, on rank 0's clock) as HPCC's flow.txt
// at FILE and the flow map at FILE.map (flows/flow_map.hpp), so a simulator, or dlcnet's own
// model, can be run on exactly what was measured and compared with `dlc-compare FILE.map
// fct.txt`. Node ids are ranks; starts count from the first message's post (origin); pg 3 and
// dport 100 as in HPCC's examples; sports per (src, dst) pair from 10000 in start order, as
// HPCC assigns them. A flat flow list keeps every message's measured post time but not what it
// waited for (docs/compare.md).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/output_file.hpp"
#include "flows/flow.hpp"
#include "flows/flow_map.hpp"

namespace dlcnet {

// `groups` is parallel to `flows` (empty: every group -1).
FlowMap flow_map_of(std::span<const Flow> flows, std::span<const int32_t> groups,
                    const std::string& tool, const std::string& group_kind);

// FILE and FILE.map, opened before the run (core/output_file.hpp: an unwritable path stops the
// run before anything is measured) and written after it.
class FlowExport {
 public:
  // Opens FILE and FILE.map now (nothing when `path` is empty); throws Error naming the file.
  explicit FlowExport(const std::string& path);
  bool wanted() const noexcept { return flows_ != nullptr; }
  // Writes and commits both; throws Error naming the file that cannot be written.
  void write(const FlowMap& map);

 private:
  std::unique_ptr<OutputFile> flows_, map_;
};

inline std::string flow_map_path(const std::string& flow_txt) {
  return flow_txt + ".map";
}

}  // namespace dlcnet
