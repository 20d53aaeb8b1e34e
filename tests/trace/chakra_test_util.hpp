// Writing Chakra ET files for the tests: nodes built with the generated protobuf classes,
// framed as Chakra frames them (a varint length, then the message).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "trace/chakra/et_def.pb.h"

namespace dlcnet::trace::chakra::test {

// An integer attribute in whichever oneof field `field` names ("int32_val", "int64_val",
// "uint32_val", "uint64_val", "sint32_val", "sint64_val", "fixed32_val", "fixed64_val",
// "sfixed32_val", "sfixed64_val").
void set_int(pb::Node& n, const std::string& name, int64_t v,
             const std::string& field = "int64_val");
void set_string(pb::Node& n, const std::string& name, const std::string& v);

pb::Node comp(uint64_t id, uint64_t duration_us, std::initializer_list<uint64_t> data_deps = {});
pb::Node send(uint64_t id, int64_t dst, int64_t tag, int64_t size,
              std::initializer_list<uint64_t> data_deps = {});
pb::Node recv(uint64_t id, int64_t src, int64_t tag, int64_t size,
              std::initializer_list<uint64_t> data_deps = {});
pb::Node coll(uint64_t id, int64_t comm_type, int64_t size);
// A collective of process group `pg_name`.
pb::Node coll(uint64_t id, int64_t comm_type, int64_t size, const std::string& pg_name);
// PyTorch's process-group metadata node, `values` its inputs' text (the groups' JSON).
pb::Node pg_init(uint64_t id, const std::string& values);

// PyTorch's configuration of two tensor-parallel groups, "1" (ranks 0, 1) and "2" (ranks 3, 2,
// in that order), and the world, "0" ("ranks" empty), as JSON.
extern const char* const kGroups;
// Four ranks' nodes: the metadata node of `values` (none when empty), an all-reduce of 1 MiB in
// the rank's tensor-parallel group (id 2), a broadcast of 4096 B in the same group (id 3), then
// an all-reduce of 4096 B in group "0" (id 4), and on the ranks of group "1" only an all-gather
// of 4096 B in it (id 5), each after the one before.
std::vector<std::vector<pb::Node>> grouped_job(const std::string& values);

// A job in `dir`: rank r's nodes as the file job.<r>.et.
void write_job(const std::string& dir, const std::vector<std::vector<pb::Node>>& ranks);

// A file's bytes: a GlobalMetadata (version 0.0.4), then the nodes.
std::string et_bytes(const std::vector<pb::Node>& nodes);
// The framing alone: varint length, then `message`.
std::string frame(const std::string& message);

// `dir` (../shared/data/chakra, the real traces) when it is there; else "" (the caller skips),
// and a test failure when CI is set (CI must have the data).
std::string shared_data(const std::string& dir);

}  // namespace dlcnet::trace::chakra::test
