#include "trace/chakra/chakra_attributes.hpp"

#include <limits>

namespace dlcnet::trace::chakra {

const pb::Attribute* find_attribute(const google::protobuf::RepeatedPtrField<pb::Attribute>& attrs,
                                    std::string_view name) {
  for (const pb::Attribute& a : attrs) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

namespace {

IntValue from_unsigned(uint64_t v) {
  if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return {true, true, 0};
  return {true, false, static_cast<int64_t>(v)};
}

}  // namespace

IntValue integer_value(const pb::Attribute& a) {
  using V = pb::Attribute;
  switch (a.value_case()) {
    case V::kInt32Val:
      return {true, false, a.int32_val()};
    case V::kInt64Val:
      return {true, false, a.int64_val()};
    case V::kUint32Val:
      return {true, false, a.uint32_val()};
    case V::kUint64Val:
      return from_unsigned(a.uint64_val());
    case V::kSint32Val:
      return {true, false, a.sint32_val()};
    case V::kSint64Val:
      return {true, false, a.sint64_val()};
    case V::kFixed32Val:
      return {true, false, a.fixed32_val()};
    case V::kFixed64Val:
      return from_unsigned(a.fixed64_val());
    case V::kSfixed32Val:
      return {true, false, a.sfixed32_val()};
    case V::kSfixed64Val:
      return {true, false, a.sfixed64_val()};
    default:
      return {};
  }
}

std::string_view value_field_name(const pb::Attribute& a) {
  const auto* field =
      pb::Attribute::descriptor()->FindFieldByNumber(static_cast<int>(a.value_case()));
  return field != nullptr ? std::string_view(field->name()) : std::string_view("no value");
}

}  // namespace dlcnet::trace::chakra
