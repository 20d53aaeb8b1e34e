// Writing a Chakra job (chakra_model.hpp) as Chakra ET files, one `<name>.<rank>.et` per rank
// (docs/chakra.md, "Writing Chakra"): a GlobalMetadata (version "0.0.4"), then every node of
// the rank in order, each length-delimited (a varint length, then the message), with the
// fields and attributes Chakra's own converters write and ASTRA-sim reads: id, name, type,
// ctrl_deps, data_deps, start_time_micros, duration_micros; `is_cpu_op` false; a send's and a
// receive's comm_src, comm_dst and comm_tag (int32_val) and comm_size (int64_val); a
// collective's comm_type and comm_size (int64_val) and pg_name (string_val, when set); the
// inputs of a process-group metadata node as read (Rank::group_definitions).
#pragma once

#include <cstdint>
#include <string>

#include "trace/chakra/chakra_model.hpp"

namespace dlcnet::trace::chakra {

// The version the files' GlobalMetadata names: the schema whose fields are written.
inline constexpr const char* kWrittenVersion = "0.0.4";

struct WriteCounts {
  uint64_t ranks = 0, nodes = 0, sends = 0, recvs = 0, collectives = 0, others = 0;
  uint64_t dependencies = 0;  // ctrl_deps and data_deps entries
};

// One rank's file, as bytes.
std::string rank_bytes(const Rank& rank);

// Writes `dir`/`name`.<rank>.et (creating `dir` when needed) through an OutputFile named "-o"
// (a temporary renamed into place: a failed write leaves no half file), adding to `counts`.
// Throws Error naming the path.
void write_chakra_rank(const Rank& rank, const std::string& dir, const std::string& name,
                       WriteCounts& counts);

}  // namespace dlcnet::trace::chakra
