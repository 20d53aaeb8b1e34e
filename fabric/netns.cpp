#include "fabric/netns.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>

#include "core/error.hpp"

namespace dlcnet::fabric {

std::string netns_label(const std::string& name) {
  return name.empty() ? "the current network namespace" : "network namespace '" + name + "'";
}

void enter_netns(const std::string& name) {
  if (name.empty()) return;
  if (name.find('/') != std::string::npos || name == "." || name == "..")
    throw Error("network namespace '" + name + "': not a name of `ip netns list`");
  const std::string path = "/var/run/netns/" + name;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    throw Error(netns_label(name) + (err == ENOENT ? " does not exist" : " cannot be opened") +
                " (" + path + ": " + errno_text(err) + ")");
  }
  const int rc = ::setns(fd, CLONE_NEWNET);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw Error("setns into " + netns_label(name) + ": " + errno_text(err));
}

}  // namespace dlcnet::fabric
