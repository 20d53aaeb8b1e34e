#include "trace/chakra/chakra_node_decode.hpp"

#include <limits>

#include "trace/chakra/chakra_attributes.hpp"

namespace dlcnet::trace::chakra {
namespace {

// Reads the node's integer attributes, reporting against the node.
class AttributeReader {
 public:
  AttributeReader(const pb::Node& msg, const Node& node, std::string_view file, Diagnostics& diag)
      : msg_(msg), node_(node), file_(file), diag_(diag) {}

  // The attribute's value in `out`. False (and a problem, when `required` or when present but
  // bad) when there is none or it is not a usable integer; `non_negative` for sizes.
  bool integer(std::string_view name, bool required, bool non_negative, int64_t& out) {
    const pb::Attribute* a = find_attribute(msg_.attr(), name);
    if (a == nullptr) {
      if (required) {
        problem(Problem::kMissingField, name,
                "missing: a " + std::string(node_type_name(node_.type)) + " needs it");
      }
      return false;
    }
    const IntValue v = integer_value(*a);
    if (!v.is_integer) {
      problem(Problem::kBadNumber, name,
              "holds " + std::string(value_field_name(*a)) + ", not an integer");
      return false;
    }
    if (v.big) {
      problem(Problem::kBadNumber, name, "overflows: above 2^63-1");
      return false;
    }
    if (non_negative && v.value < 0) {
      problem(Problem::kBadNumber, name, "is negative (" + std::to_string(v.value) + ")");
      return false;
    }
    out = v.value;
    return true;
  }

  // As integer(), for a rank: refused outside 32 bits.
  bool rank(std::string_view name, bool required, int32_t& out) {
    int64_t v = 0;
    if (!integer(name, required, false, v)) return false;
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      problem(Problem::kBadNumber, name,
              "overflows: " + std::to_string(v) + " is outside -2^31 to 2^31-1");
      return false;
    }
    out = static_cast<int32_t>(v);
    return true;
  }

  std::string_view string(std::string_view name) const {
    const pb::Attribute* a = find_attribute(msg_.attr(), name);
    return a != nullptr && a->value_case() == pb::Attribute::kStringVal ? a->string_val()
                                                                        : std::string_view();
  }

  void problem(Problem p, std::string_view field, const std::string& what) {
    if (!diag_.wants(p)) return diag_.count(p);
    diag_.add(p, file_, 0, describe(node_) + ": field '" + std::string(field) + "': " + what);
  }

 private:
  const pb::Node& msg_;
  const Node& node_;
  std::string_view file_;
  Diagnostics& diag_;
};

bool decode_send_recv(AttributeReader& attrs, int32_t rank, Node& out) {
  const bool send = out.type == NodeType::kCommSend;
  int64_t size = 0;
  bool ok = attrs.integer("comm_size", true, true, size);
  out.size = static_cast<uint64_t>(size);
  // The peer is required; this rank's own side may be left out (it is the file's rank).
  ok = attrs.rank(send ? "comm_dst" : "comm_src", true, send ? out.dst : out.src) && ok;
  int32_t& self = send ? out.src : out.dst;
  self = rank;
  int64_t named = rank;
  if (attrs.integer(send ? "comm_src" : "comm_dst", false, false, named) && named != rank) {
    attrs.problem(Problem::kWrongNode, send ? "comm_src" : "comm_dst",
                  "names rank " + std::to_string(named) + " but this is rank " +
                      std::to_string(rank) + "'s file");
    ok = false;
  }
  attrs.integer("comm_tag", false, false, out.tag);
  return ok;
}

bool decode_collective(AttributeReader& attrs, NodeStore& store, Node& out) {
  int64_t type = 0;
  if (!attrs.integer("comm_type", true, false, type)) return false;
  if (type < 0 || type >= static_cast<int64_t>(kNumCollectives)) {
    attrs.problem(Problem::kUnknownOperation, "comm_type",
                  "unknown collective type " + std::to_string(type));
    return false;
  }
  out.collective = static_cast<Collective>(type);
  int64_t size = 0;
  // A barrier carries no data: its size may be left out.
  const bool ok = attrs.integer("comm_size", out.collective != Collective::kBarrier, true, size);
  out.size = static_cast<uint64_t>(size);
  store.set_pg_name(out, attrs.string("pg_name"));
  return ok || out.collective == Collective::kBarrier;
}

}  // namespace

bool decode_node(const pb::Node& msg, int32_t rank, std::string_view file, NodeStore& store,
                 Node& out, Diagnostics& diag) {
  out.id = msg.id();
  store.set_name(out, msg.name());
  AttributeReader attrs(msg, out, file, diag);
  const int type = msg.type();
  if (type <= 0 || type >= static_cast<int>(kNumNodeTypes)) {
    attrs.problem(
        Problem::kUnknownOperation, "type",
        "unknown node type " + std::to_string(type) + (type == 0 ? " (INVALID_NODE)" : ""));
    return false;
  }
  out.type = static_cast<NodeType>(type);
  store.set_deps(out, {msg.ctrl_deps().data(), static_cast<size_t>(msg.ctrl_deps_size())},
                 {msg.data_deps().data(), static_cast<size_t>(msg.data_deps_size())});
  out.start_us = msg.start_time_micros();
  out.duration_us = msg.duration_micros();
  int64_t runtime = 0;
  if (out.duration_us == 0 && attrs.integer("runtime", false, true, runtime)) {
    out.duration_us = static_cast<uint64_t>(runtime);
  }
  switch (out.type) {
    case NodeType::kCommSend:
    case NodeType::kCommRecv:
      return decode_send_recv(attrs, rank, out);
    case NodeType::kCommColl:
      return decode_collective(attrs, store, out);
    default:
      return true;
  }
}

}  // namespace dlcnet::trace::chakra
