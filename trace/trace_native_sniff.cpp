// Telling a native file from a SketchDLC one by its first bytes.
#include "core/error.hpp"
#include "trace/trace_native.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {

bool looks_native(std::string_view head) {
  if (head.starts_with(kUtf8Bom)) head.remove_prefix(kUtf8Bom.size());
  return head.starts_with(kNativePrefix);
}

bool is_native_file(const std::string& path) {
  try {
    LineReader in(path, 4096);
    return looks_native(in.peek(kUtf8Bom.size() + kNativePrefix.size()));
  } catch (const Error&) {
    return false;
  }
}

}  // namespace dlcnet::trace
