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

// A file's bytes: a GlobalMetadata (version 0.0.4), then the nodes.
std::string et_bytes(const std::vector<pb::Node>& nodes);
// The framing alone: varint length, then `message`.
std::string frame(const std::string& message);

// ../shared/data/chakra (`dir`) when it is there; absent on a developer's machine: "" (the test
// skips), in CI (CI set) a failure.
std::string shared_chakra_data(const std::string& dir);

}  // namespace dlcnet::trace::chakra::test
