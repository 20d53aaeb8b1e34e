#include "trace/chakra/chakra_writer.hpp"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include <climits>
#include <filesystem>
#include <functional>
#include <string_view>
#include <system_error>

#include "core/error.hpp"
#include "core/output_file.hpp"
#include "trace/chakra/et_def.pb.h"

namespace dlcnet::trace::chakra {
namespace {

namespace fs = std::filesystem;

void add_int64(pb::Node& m, const char* name, int64_t v) {
  pb::Attribute* a = m.add_attr();
  a->set_name(name);
  a->set_int64_val(v);
}

// Ranks and tags as int32_val, as Chakra's converters write them; a value past int32 (a tag
// another writer chose) as int64_val, which every integer reading accepts.
void add_int32(pb::Node& m, const char* name, int64_t v) {
  if (v < INT32_MIN || v > INT32_MAX) return add_int64(m, name, v);
  pb::Attribute* a = m.add_attr();
  a->set_name(name);
  a->set_int32_val(static_cast<int32_t>(v));
}

void to_message(const Node& n, pb::Node& m) {
  m.Clear();
  m.set_id(n.id);
  m.set_name(std::string(n.name()));
  m.set_type(static_cast<pb::NodeType>(n.type));
  for (const uint64_t d : n.ctrl_deps()) m.add_ctrl_deps(d);
  for (const uint64_t d : n.data_deps()) m.add_data_deps(d);
  m.set_start_time_micros(n.start_us);
  m.set_duration_micros(n.duration_us);
  pb::Attribute* cpu = m.add_attr();
  cpu->set_name("is_cpu_op");
  cpu->set_bool_val(false);
  switch (n.type) {
    case NodeType::kCommSend:
    case NodeType::kCommRecv:
      add_int32(m, "comm_src", n.src);
      add_int32(m, "comm_dst", n.dst);
      add_int32(m, "comm_tag", n.tag);
      add_int64(m, "comm_size", static_cast<int64_t>(n.size));
      break;
    case NodeType::kCommColl: {
      add_int64(m, "comm_type", static_cast<int64_t>(n.collective));
      add_int64(m, "comm_size", static_cast<int64_t>(n.size));
      if (!n.pg_name().empty()) {
        pb::Attribute* pg = m.add_attr();
        pg->set_name("pg_name");
        pg->set_string_val(std::string(n.pg_name()));
      }
      break;
    }
    default:
      break;
  }
}

void frame(const google::protobuf::MessageLite& m, std::string& out) {
  google::protobuf::io::StringOutputStream stream(&out);
  if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(m, &stream)) {
    throw Error("a Chakra message of " + std::to_string(m.ByteSizeLong()) +
                " bytes cannot be serialised (protobuf's limit is 2 GiB)");
  }
}

// The rank's frames, one at a time (the metadata, then each node), to `sink`.
void encode_rank(const Rank& rank, const std::function<void(std::string_view)>& sink,
                 WriteCounts& counts) {
  std::string buf;
  pb::GlobalMetadata meta;
  meta.set_version(kWrittenVersion);
  frame(meta, buf);
  sink(buf);
  pb::Node m;
  auto group = rank.group_definitions.begin();
  for (const Node& n : rank.nodes) {
    to_message(n, m);
    // A process-group metadata node keeps its inputs' text (chakra_groups.hpp reads it).
    if (group != rank.group_definitions.end() &&
        group->node == static_cast<uint32_t>(&n - rank.nodes.data())) {
      m.mutable_inputs()->set_values(group->values);
      ++group;
    }
    buf.clear();
    frame(m, buf);
    sink(buf);
    ++counts.nodes;
    counts.dependencies += n.ctrl_deps().size() + n.data_deps().size();
    switch (n.type) {
      case NodeType::kCommSend:
        ++counts.sends;
        break;
      case NodeType::kCommRecv:
        ++counts.recvs;
        break;
      case NodeType::kCommColl:
        ++counts.collectives;
        break;
      default:
        ++counts.others;
    }
  }
  ++counts.ranks;
}

}  // namespace

std::string rank_bytes(const Rank& rank) {
  std::string out;
  WriteCounts counts;
  encode_rank(
      rank, [&](std::string_view s) { out.append(s); }, counts);
  return out;
}

void write_chakra_rank(const Rank& rank, const std::string& dir, const std::string& name,
                       WriteCounts& counts) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("-o " + dir + ": cannot create the directory: " + ec.message());
  OutputFile out("-o", (fs::path(dir) / (name + "." + std::to_string(rank.rank) + ".et")).string());
  encode_rank(
      rank, [&](std::string_view s) { out.put(s); }, counts);
  out.commit();
}

}  // namespace dlcnet::trace::chakra
