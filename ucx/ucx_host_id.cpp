#include "ucx/ucx_host_id.hpp"

#include <sys/stat.h>

#include <fstream>

#include "ucx/ucx_settings.hpp"

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
  return tls.empty() ||
         tls_allows(tls, {"all", "sm", "shm", "posix", "sysv", "cma", "knem", "xpmem"});
}

}  // namespace dlcnet::ucx
