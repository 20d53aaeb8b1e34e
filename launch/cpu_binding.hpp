// Binds a rank's thread (--cpu) with hwloc: auto places it on a core of the NUMA node of the RDMA
// device the rank uses, a list on the CPUs named. What was done, and why, goes on the console and
// into the JSON context ("cpu").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/cpu_list.hpp"

namespace dlcnet {

struct CpuBinding {
  std::string requested;           // auto, none or the list as given
  bool bound = false;              // the thread's CPU affinity was set
  std::vector<unsigned> cpus;      // what it was set to (empty when not bound)
  std::string device;              // auto: the device placed by ("" when none)
  std::string locality;            // auto: where the topology puts it, e.g. "PCI 0000:00:03.0"
  int numa_node = -1;              // auto: the device's NUMA node (-1: unknown)
  std::string memory;              // auto: how the thread's new memory is placed, or why not
  std::string reason;              // why this binding, or why none
  std::vector<unsigned> affinity;  // the thread's affinity afterwards (sched_getaffinity)
  nlohmann::json to_json() const;
  std::string summary() const;  // one console line
};

// Binds the calling thread.
// - none: leaves it as it is.
// - auto: a core of the NUMA node nearest `device` (an RDMA device; for Soft-RoCE the PCI device
//   of the interface under it); `slot` (the rank's index among those sharing the host) picks the
//   core, so ranks of one host do not share one. Its memory policy prefers that node. Without a
//   device (UCX), where the `host_ranks` ranks of this host fit its cores, core `slot` (as
//   mpirun binds its ranks to cores; 0 ranks: unknown, not bound). Where the topology says
//   nothing (no device and more ranks than cores, or a device without a PCI device behind it)
//   it does not bind and says why.
// - list: the slot-th CPU of the list (modulo its length), as ucx_perftest's -c gives a thread
//   one CPU; throws Error when the list names a CPU this process may not run on.
CpuBinding bind_this_thread(const CpuRequest& request, const std::string& device, unsigned slot,
                            unsigned host_ranks = 0);

}  // namespace dlcnet
