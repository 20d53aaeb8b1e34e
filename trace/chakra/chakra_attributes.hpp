// Reading a Chakra node's attributes (`attr`, name and a oneof value). An integer attribute is
// accepted from any integer field of the oneof: Chakra's converters write sizes and types as
// int64_val and ranks and tags as int32_val, other writers use the unsigned or zigzag fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trace/chakra/et_def.pb.h"

namespace dlcnet::trace::chakra {

// The attribute named `name`, or nullptr. The first one wins when a node repeats a name.
const pb::Attribute* find_attribute(const google::protobuf::RepeatedPtrField<pb::Attribute>& attrs,
                                    std::string_view name);

// An integer value, whatever integer field holds it; a 64-bit unsigned value above INT64_MAX
// is returned as such in `big` (sizes that overflow are reported by the caller).
struct IntValue {
  bool is_integer = false;  // false: the attribute holds no integer (a string, a double...)
  bool big = false;         // the value is a uint64 above INT64_MAX
  int64_t value = 0;
};
IntValue integer_value(const pb::Attribute& a);

// The name of the oneof field that holds the value ("string_val", "none"), for messages.
std::string_view value_field_name(const pb::Attribute& a);

}  // namespace dlcnet::trace::chakra
