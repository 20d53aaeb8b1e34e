#include "tests/trace/chakra_test_util.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace dlcnet::trace::chakra::test {

void set_int(pb::Node& n, const std::string& name, int64_t v, const std::string& field) {
  pb::Attribute* a = n.add_attr();
  a->set_name(name);
  const auto* f = pb::Attribute::descriptor()->FindFieldByName(field);
  const auto* r = a->GetReflection();
  using T = google::protobuf::FieldDescriptor;
  switch (f->cpp_type()) {
    case T::CPPTYPE_INT32:
      r->SetInt32(a, f, static_cast<int32_t>(v));
      break;
    case T::CPPTYPE_INT64:
      r->SetInt64(a, f, v);
      break;
    case T::CPPTYPE_UINT32:
      r->SetUInt32(a, f, static_cast<uint32_t>(v));
      break;
    case T::CPPTYPE_UINT64:
      r->SetUInt64(a, f, static_cast<uint64_t>(v));
      break;
    default:
      break;
  }
}

void set_string(pb::Node& n, const std::string& name, const std::string& v) {
  pb::Attribute* a = n.add_attr();
  a->set_name(name);
  a->set_string_val(v);
}

namespace {

pb::Node node(uint64_t id, pb::NodeType type, std::initializer_list<uint64_t> data_deps) {
  pb::Node n;
  n.set_id(id);
  n.set_name("n" + std::to_string(id));
  n.set_type(type);
  for (const uint64_t d : data_deps) n.add_data_deps(d);
  return n;
}

}  // namespace

pb::Node comp(uint64_t id, uint64_t duration_us, std::initializer_list<uint64_t> data_deps) {
  pb::Node n = node(id, pb::COMP_NODE, data_deps);
  n.set_duration_micros(duration_us);
  return n;
}

pb::Node send(uint64_t id, int64_t dst, int64_t tag, int64_t size,
              std::initializer_list<uint64_t> data_deps) {
  pb::Node n = node(id, pb::COMM_SEND_NODE, data_deps);
  set_int(n, "comm_dst", dst, "int32_val");
  set_int(n, "comm_tag", tag, "int32_val");
  set_int(n, "comm_size", size);
  return n;
}

pb::Node recv(uint64_t id, int64_t src, int64_t tag, int64_t size,
              std::initializer_list<uint64_t> data_deps) {
  pb::Node n = node(id, pb::COMM_RECV_NODE, data_deps);
  set_int(n, "comm_src", src, "int32_val");
  set_int(n, "comm_tag", tag, "int32_val");
  set_int(n, "comm_size", size);
  return n;
}

pb::Node coll(uint64_t id, int64_t comm_type, int64_t size) {
  pb::Node n = node(id, pb::COMM_COLL_NODE, {});
  set_int(n, "comm_type", comm_type);
  set_int(n, "comm_size", size);
  return n;
}

pb::Node coll(uint64_t id, int64_t comm_type, int64_t size, const std::string& pg_name) {
  pb::Node n = coll(id, comm_type, size);
  set_string(n, "pg_name", pg_name);
  return n;
}

pb::Node pg_init(uint64_t id, const std::string& values) {
  pb::Node n = node(id, pb::METADATA_NODE, {});
  n.set_name("## process_group:init ##");
  n.mutable_inputs()->set_values(values);
  return n;
}

const char* const kGroups =
    R"([{"pg_name": "0", "pg_desc": "default_pg", "ranks": [], "group_size": 4},)"
    R"( {"pg_name": "1", "pg_desc": "tp", "ranks": [0, 1], "group_size": 2},)"
    R"( {"pg_name": "2", "pg_desc": "tp", "ranks": [3, 2], "group_size": 2}])";

std::vector<std::vector<pb::Node>> grouped_job(const std::string& values) {
  std::vector<std::vector<pb::Node>> ranks(4);
  for (int r = 0; r < 4; ++r) {
    auto& nodes = ranks[static_cast<size_t>(r)];
    const std::string tp = r < 2 ? "1" : "2";
    if (!values.empty()) nodes.push_back(pg_init(1, values));
    nodes.push_back(coll(2, 0, 1 << 20, tp));
    nodes.push_back(coll(3, 5, 4096, tp));
    nodes.back().add_data_deps(2);
    nodes.push_back(coll(4, 0, 4096, "0"));
    nodes.back().add_data_deps(3);
    if (r < 2) {
      nodes.push_back(coll(5, 2, 4096, tp));
      nodes.back().add_data_deps(4);
    }
  }
  return ranks;
}

std::string frame(const std::string& message) {
  std::string out;
  uint64_t len = message.size();
  do {
    const auto b = static_cast<uint8_t>(len & 0x7f);
    len >>= 7;
    out.push_back(static_cast<char>(len != 0 ? b | 0x80 : b));
  } while (len != 0);
  return out + message;
}

std::string et_bytes(const std::vector<pb::Node>& nodes) {
  pb::GlobalMetadata meta;
  meta.set_version("0.0.4");
  std::string out = frame(meta.SerializeAsString());
  for (const pb::Node& n : nodes) out += frame(n.SerializeAsString());
  return out;
}

void write_job(const std::string& dir, const std::vector<std::vector<pb::Node>>& ranks) {
  for (size_t r = 0; r < ranks.size(); ++r) {
    std::ofstream out(dir + "/job." + std::to_string(r) + ".et", std::ios::binary);
    out << et_bytes(ranks[r]);
    ASSERT_TRUE(out.good()) << dir;
  }
}

std::string shared_data(const std::string& dir) {
  if (std::filesystem::is_directory(dir)) return dir;
  if (std::getenv("CI") != nullptr) ADD_FAILURE() << "CI: no Chakra test data at " << dir;
  return "";
}

}  // namespace dlcnet::trace::chakra::test
