#include "launch/coordinator_bind.hpp"

#include <arpa/inet.h>

namespace dlcnet {
namespace {

bool is_address(const std::string& host) {
  unsigned char buf[sizeof(in6_addr)];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

}  // namespace

CoordinatorBind coordinator_bind(const std::string& coordinator_host,
                                 const std::string& override_host) {
  if (!override_host.empty()) return {override_host, ""};
  if (coordinator_host.empty()) return {"127.0.0.1", ""};
  if (is_address(coordinator_host)) return {coordinator_host, ""};
  return {"0.0.0.0", "the coordinator listens on every interface: " + coordinator_host +
                         " is a name, which may resolve to another address on this host than "
                         "on the others; give rank 0's address instead (--coordinator ADDR:PORT) "
                         "or set DLCNET_COORDINATOR_BIND to restrict it"};
}

}  // namespace dlcnet
