// Telling a native file from a SketchDLC one by its first bytes.
#include <sys/stat.h>

#include "core/error.hpp"
#include "trace/trace_csv.hpp"
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

int native_file_version(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  try {
    LineReader in(path, 4096);
    std::string_view head = in.peek(64);  // the magic and the version: the rest is not needed
    head = head.substr(0, head.find_first_of("\r\n"));
    return read_native_magic(head, "").version;
  } catch (const Error&) {
    return 0;
  }
}

}  // namespace dlcnet::trace
