#pragma once
// Where rank 0's bootstrap listens: the address the other ranks are told to connect to, never
// every interface unless asked or unavoidable (issue #16, "the coordinator").
#include <string>

namespace dlcnet {

struct CoordinatorBind {
  std::string host;  // what rank 0 binds: an address, or "0.0.0.0" for every interface
  std::string why;   // one line for the user when it is every interface, else empty
};

// `coordinator_host`: the host the ranks connect to (an address or a name; "" in tests that
// build a job by hand: loopback). `override_host`: DLCNET_COORDINATOR_BIND when set, which wins
// ("0.0.0.0" listens everywhere, e.g. behind NAT).
// - An address (IPv4 or IPv6 literal): bound exactly; --spawn and one-host launches give
//   127.0.0.1, so their coordinator is reachable from this host only.
// - A name: every interface, said in `why`. A name can resolve to another address on rank 0's
//   own host than on the others (Debian's /etc/hosts maps the hostname to 127.0.1.1), and
//   binding that address would lock the remote ranks out.
CoordinatorBind coordinator_bind(const std::string& coordinator_host,
                                 const std::string& override_host);

}  // namespace dlcnet
