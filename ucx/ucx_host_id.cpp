#include "ucx/ucx_host_id.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>

namespace dlcnet::ucx {
namespace {

std::string namespace_inode(const char* name) {
  struct stat st {};
  if (::stat((std::string("/proc/self/ns/") + name).c_str(), &st) != 0) return "";
  return std::to_string(st.st_ino);
}

}  // namespace

std::string shared_memory_domain() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!(in >> id) || id.empty()) return "";
  for (const char* ns : {"net", "mnt", "ipc", "pid"}) {
    const std::string inode = namespace_inode(ns);
    if (inode.empty()) return "";
    id += "/" + inode;
  }
  return id;
}

bool allows_shared_memory(const std::string& tls) {
  static const char* const kShared[] = {"all",  "sm",  "shm",  "posix",
                                        "sysv", "cma", "knem", "xpmem"};
  size_t start = 0;
  while (start <= tls.size()) {
    const size_t end = std::min(tls.find(',', start), tls.size());
    std::string item = tls.substr(start, end - start);
    item = item.substr(0, item.find(':'));
    if (!item.empty() && item[0] == '^') return true;  // "all but ...": no list of its own here
    for (const char* s : kShared) {
      if (item == s) return true;
    }
    start = end + 1;
  }
  return tls.empty();
}

}  // namespace dlcnet::ucx
