// Moving the calling thread into a named network namespace (`ip netns add NAME`).
#pragma once

#include <string>

namespace dlcnet::fabric {

// "network namespace 'NAME'", or "the current network namespace" for an empty name: how
// messages name a namespace.
std::string netns_label(const std::string& name);

// Enters /var/run/netns/NAME with setns(CLONE_NEWNET), for the calling thread only (other
// threads stay where they are). Throws Error naming the namespace when it does not exist or
// cannot be entered. An empty name does nothing.
void enter_netns(const std::string& name);

}  // namespace dlcnet::fabric
