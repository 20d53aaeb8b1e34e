#include "launch/cpu_binding.hpp"

#include <hwloc.h>
#include <pthread.h>
#include <sched.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include "core/error.hpp"

namespace dlcnet {
namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology* t) const noexcept { hwloc_topology_destroy(t); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;
struct BitmapDeleter {
  void operator()(hwloc_bitmap_s* b) const noexcept { hwloc_bitmap_free(b); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

// This machine with its PCI devices and their OS devices (network interfaces, RDMA devices).
Topology load_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) throw Error("hwloc_topology_init failed");
  Topology t(raw);
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  if (hwloc_topology_load(raw) != 0) {
    throw Error(std::string("hwloc_topology_load: ") + std::strerror(errno));
  }
  return t;
}

std::vector<unsigned> thread_affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<unsigned> out;
  if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0) return out;
  for (unsigned c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) out.push_back(c);
  }
  return out;
}

std::vector<unsigned> bitmap_cpus(hwloc_const_bitmap_t b) {
  std::vector<unsigned> out;
  for (int c = hwloc_bitmap_first(b); c >= 0; c = hwloc_bitmap_next(b, c)) {
    out.push_back(static_cast<unsigned>(c));
  }
  return out;
}

hwloc_obj_t osdev_named(hwloc_topology_t t, const std::string& name) {
  for (hwloc_obj_t o = hwloc_get_next_osdev(t, nullptr); o; o = hwloc_get_next_osdev(t, o)) {
    if (o->name && name == o->name) return o;
  }
  return nullptr;
}

// Soft-RoCE and siw devices name the interface they run over in sysfs.
std::string parent_netdev(const std::string& device) {
  std::ifstream f("/sys/class/infiniband/" + device + "/parent");
  std::string netdev;
  std::getline(f, netdev);
  return netdev;
}

std::string pci_locality(hwloc_obj_t o) {
  for (; o; o = o->parent) {
    if (o->type != HWLOC_OBJ_PCI_DEVICE) continue;
    char id[32];
    std::snprintf(id, sizeof id, "PCI %04x:%02x:%02x.%x", o->attr->pcidev.domain,
                  o->attr->pcidev.bus, o->attr->pcidev.dev, o->attr->pcidev.func);
    return id;
  }
  return "";
}

void set_thread_cpus(hwloc_topology_t t, hwloc_const_bitmap_t set, CpuBinding& b) {
  if (hwloc_set_cpubind(t, set, HWLOC_CPUBIND_THREAD) != 0) {
    throw Error("--cpu " + b.requested + ": binding the thread failed: " + std::strerror(errno));
  }
  b.bound = true;
  b.cpus = bitmap_cpus(set);
}

void bind_list(hwloc_topology_t t, const CpuRequest& r, unsigned slot, CpuBinding& b) {
  hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(t);
  for (unsigned c : r.cpus) {
    if (!hwloc_bitmap_isset(allowed, c)) {
      throw Error("--cpu " + r.text + ": CPU " + std::to_string(c) +
                  " is not one this process may run on (" + format_cpu_list(bitmap_cpus(allowed)) +
                  ")");
    }
  }
  const unsigned cpu = r.cpus[slot % r.cpus.size()];
  Bitmap set(hwloc_bitmap_alloc());
  hwloc_bitmap_only(set.get(), cpu);
  set_thread_cpus(t, set.get(), b);
  b.reason = "CPU " + std::to_string(cpu) + " of the list (rank slot " + std::to_string(slot) + ")";
}

// The cores of `cpus` (CPUs where the topology has no cores) and how many there are.
struct Units {
  hwloc_obj_type_t type = HWLOC_OBJ_CORE;
  int count = 0;
  const char* name() const noexcept { return type == HWLOC_OBJ_CORE ? "core" : "CPU"; }
};
Units units_in(hwloc_topology_t t, hwloc_const_cpuset_t cpus) {
  Units u;
  u.count = hwloc_get_nbobjs_inside_cpuset_by_type(t, cpus, u.type);
  if (u.count <= 0) {
    u.type = HWLOC_OBJ_PU;
    u.count = hwloc_get_nbobjs_inside_cpuset_by_type(t, cpus, u.type);
  }
  return u;
}

// Binds the thread to unit slot % count of `cpus` (count > 0); its index.
unsigned bind_unit(hwloc_topology_t t, hwloc_const_cpuset_t cpus, const Units& u, unsigned slot,
                   CpuBinding& b) {
  const unsigned index = slot % static_cast<unsigned>(u.count);
  hwloc_obj_t unit = hwloc_get_obj_inside_cpuset_by_type(t, cpus, u.type, index);
  set_thread_cpus(t, unit->cpuset, b);
  return index;
}

// No device to place by: a core of its own per rank of the host where they fit (as mpirun binds
// its ranks to cores), else not bound.
void bind_without_device(hwloc_topology_t t, unsigned slot, unsigned host_ranks, CpuBinding& b) {
  const std::string none = "no RDMA device to place by (UCX picks its devices per lane)";
  hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(t);
  const Units u = units_in(t, allowed);
  if (host_ranks == 0 || u.count <= 0 || host_ranks > static_cast<unsigned>(u.count)) {
    b.reason = none + ": the topology says nothing about where the traffic goes" +
               (host_ranks > 0 && u.count > 0
                    ? ", and the " + std::to_string(host_ranks) + " ranks of this host outnumber " +
                          "the " + std::to_string(u.count) + " " + u.name() + "s it may use"
                    : std::string()) +
               "; not bound";
    return;
  }
  const unsigned index = bind_unit(t, allowed, u, slot, b);
  b.reason = std::string(u.name()) + " " + std::to_string(index) + " of the " +
             std::to_string(u.count) + " this process may use, one per rank of this host (" +
             std::to_string(host_ranks) + "), as mpirun binds its ranks; " + none;
}

void bind_auto(hwloc_topology_t t, const std::string& device, unsigned slot, unsigned host_ranks,
               CpuBinding& b) {
  b.device = device;
  if (device.empty()) {
    bind_without_device(t, slot, host_ranks, b);
    return;
  }
  hwloc_obj_t osdev = osdev_named(t, device);
  std::string via;
  if (!osdev) {
    via = parent_netdev(device);
    if (!via.empty()) osdev = osdev_named(t, via);
  }
  const std::string named = via.empty() ? device : device + " (over " + via + ")";
  if (!osdev) {
    b.reason = named +
               " has no PCI device in the topology (a virtual interface?): it says "
               "nothing about the device's NUMA node; not bound";
    return;
  }
  b.locality = pci_locality(osdev);
  hwloc_obj_t near = hwloc_get_non_io_ancestor_obj(t, osdev);
  const int nodes = near ? hwloc_bitmap_weight(near->nodeset) : 0;
  if (nodes != 1) {
    b.reason = named + " is local to " + std::to_string(nodes) +
               " NUMA nodes: the topology does not say which one; not bound";
    return;
  }
  b.numa_node = hwloc_bitmap_first(near->nodeset);
  hwloc_obj_t node = hwloc_get_numanode_obj_by_os_index(t, static_cast<unsigned>(b.numa_node));
  hwloc_const_cpuset_t cpus = node ? node->cpuset : near->cpuset;
  const Units u = units_in(t, cpus);
  if (u.count <= 0) {
    b.reason = "NUMA node " + std::to_string(b.numa_node) + " of " + named +
               " has no CPU this process may run on; not bound";
    return;
  }
  const unsigned index = bind_unit(t, cpus, u, slot, b);
  b.reason = std::string(u.name()) + " " + std::to_string(index) + " of " +
             std::to_string(u.count) + " on NUMA node " + std::to_string(b.numa_node) +
             ", the node of " + named + (b.locality.empty() ? "" : " at " + b.locality);
  if (hwloc_set_membind(t, near->nodeset, HWLOC_MEMBIND_BIND,
                        HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET) == 0) {
    b.memory = "bound to NUMA node " + std::to_string(b.numa_node);
  } else {
    b.memory = std::string("not bound: ") + std::strerror(errno);
  }
}

}  // namespace

CpuBinding bind_this_thread(const CpuRequest& request, const std::string& device, unsigned slot,
                            unsigned host_ranks) {
  CpuBinding b;
  b.requested = request.text.empty() ? "auto" : request.text;
  if (request.mode == CpuRequest::Mode::none) {
    b.reason = "--cpu none: left where the scheduler puts it";
  } else {
    Topology t = load_topology();
    if (request.mode == CpuRequest::Mode::list) {
      bind_list(t.get(), request, slot, b);
    } else {
      bind_auto(t.get(), device, slot, host_ranks, b);
    }
  }
  b.affinity = thread_affinity();
  return b;
}

nlohmann::json CpuBinding::to_json() const {
  auto opt_string = [](const std::string& s) {
    return s.empty() ? nlohmann::json() : nlohmann::json(s);
  };
  return {{"requested", requested},
          {"bound", bound},
          {"cpus", cpus},
          {"device", opt_string(device)},
          {"locality", opt_string(locality)},
          {"numa_node", numa_node >= 0 ? nlohmann::json(numa_node) : nlohmann::json()},
          {"memory", opt_string(memory)},
          {"reason", reason},
          {"affinity", affinity}};
}

std::string CpuBinding::summary() const {
  std::string s = bound ? "bound to CPU " + format_cpu_list(cpus) + " (" + reason + ")" : reason;
  if (!memory.empty()) s += "; memory " + memory;
  return s;
}

}  // namespace dlcnet
