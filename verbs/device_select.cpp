#include "verbs/device_select.hpp"

#include <fstream>
#include <functional>
#include <sstream>

#include "core/error.hpp"
#include "verbs/verbs_transport.hpp"

namespace dlcnet::verbs {
namespace {

constexpr char kNoDevice[] =
    "no RDMA device found (ibv_get_device_list() lists none): load the NIC's driver, or add a "
    "Soft-RoCE device with `rdma link add rxe0 type rxe netdev <interface>`";

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

uint8_t port_count(ibv_context* ctx) {
  ibv_device_attr attr{};
  if (int rc = ibv_query_device(ctx, &attr); rc != 0) {
    throw_verbs_error(device_name_of(ctx), "ibv_query_device", returned_errno(rc));
  }
  return attr.phys_port_cnt;
}

ibv_port_attr query_port(ibv_context* ctx, uint8_t port) {
  ibv_port_attr attr{};
  if (int rc = ibv_query_port(ctx, port, &attr); rc != 0) {
    throw_verbs_error(device_name_of(ctx), "ibv_query_port(port=" + std::to_string(port) + ")",
                      returned_errno(rc));
  }
  return attr;
}

// First ACTIVE port (or `wanted` if it is ACTIVE); 0 if none. Appends the states seen.
uint8_t first_active_port(ibv_context* ctx, int wanted, std::string& states) {
  const uint8_t n = port_count(ctx);
  for (uint8_t p = 1; p <= n; ++p) {
    if (wanted > 0 && p != wanted) continue;
    const ibv_port_attr attr = query_port(ctx, p);
    if (attr.state == IBV_PORT_ACTIVE) return p;
    states += (states.empty() ? "port " : ", port ") + std::to_string(p) + ": " +
              ibv_port_state_str(attr.state);
  }
  if (wanted > n) states += "no port " + std::to_string(wanted);
  return 0;
}

// Picks among `names`; `context(i)` opens (or returns) candidate i's context.
size_t pick_device(const std::vector<std::string>& names, const TransportOptions& opts,
                   const std::function<ibv_context*(size_t)>& context) {
  if (names.empty()) throw Error(kNoDevice);
  if (!opts.device.empty()) {
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == opts.device) return i;
    }
    throw Error("no RDMA device '" + opts.device + "'; devices: " + join(names));
  }
  std::vector<std::string> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string states;
    try {
      if (first_active_port(context(i), opts.ib_port, states) != 0) return i;
    } catch (const Error& e) {
      states = e.what();
    }
    seen.push_back(names[i] + " (" + states + ")");
  }
  throw Error("no RDMA device has an ACTIVE port" +
              (opts.ib_port > 0 ? " " + std::to_string(opts.ib_port) : std::string()) +
              "; devices: " + join(seen));
}

bool read_line(const std::string& path, std::string& out) {
  std::ifstream in(path);
  return static_cast<bool>(std::getline(in, out));
}

// GID table with types: ibv_query_gid_table() where the kernel has it, else sysfs (the same
// data show_gids reads).
std::vector<ibv_gid_entry> gid_table(ibv_context* ctx, uint8_t port, int table_len, bool ethernet) {
  std::vector<ibv_gid_entry> entries(static_cast<size_t>(table_len) * port_count(ctx));
  const ssize_t n = ibv_query_gid_table(ctx, entries.data(), entries.size(), 0);
  if (n >= 0) {
    entries.resize(static_cast<size_t>(n));
    std::erase_if(entries, [&](const ibv_gid_entry& e) { return e.port_num != port; });
    return entries;
  }
  entries.clear();
  const std::string dir = std::string("/sys/class/infiniband/") + device_name_of(ctx) + "/ports/" +
                          std::to_string(port) + "/";
  for (int i = 0; i < table_len; ++i) {
    std::string gid_text, type;
    // Unused entries make the types file fail with EINVAL; skip them.
    if (!read_line(dir + "gids/" + std::to_string(i), gid_text)) continue;
    if (!read_line(dir + "gid_attrs/types/" + std::to_string(i), type)) continue;
    auto gid = parse_gid(gid_text);
    if (!gid || gid_is_zero(*gid)) continue;
    ibv_gid_entry e{};
    std::copy(gid->begin(), gid->end(), e.gid.raw);
    e.gid_index = static_cast<uint32_t>(i);
    e.port_num = port;
    e.gid_type = type == "RoCE v2" ? IBV_GID_TYPE_ROCE_V2
                 : ethernet        ? IBV_GID_TYPE_ROCE_V1
                                   : IBV_GID_TYPE_IB;
    entries.push_back(e);
  }
  return entries;
}

GidBytes to_bytes(const ibv_gid& gid) {
  GidBytes b{};
  std::copy(std::begin(gid.raw), std::end(gid.raw), b.begin());
  return b;
}

}  // namespace

const char* gid_type_name(uint32_t type) noexcept {
  switch (type) {
    case IBV_GID_TYPE_ROCE_V2:
      return "RoCE v2";
    case IBV_GID_TYPE_ROCE_V1:
      return "RoCE v1";
    default:
      return "IB";
  }
}

const char* link_layer_name(uint8_t link_layer) noexcept {
  return link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand";
}

Context open_selected_device(const TransportOptions& opts) {
  DeviceList list;
  std::vector<std::string> names;
  for (int i = 0; i < list.size(); ++i) names.emplace_back(ibv_get_device_name(list[i]));
  std::vector<Context> opened(names.size());
  const size_t chosen = pick_device(names, opts, [&](size_t i) {
    if (!opened[i]) opened[i] = open_device(list[static_cast<int>(i)]);
    return opened[i].get();
  });
  if (!opened[chosen]) opened[chosen] = open_device(list[static_cast<int>(chosen)]);
  return std::move(opened[chosen]);
}

ibv_context* select_among(const std::vector<ibv_context*>& contexts, const TransportOptions& opts) {
  std::vector<std::string> names;
  for (ibv_context* ctx : contexts) names.emplace_back(device_name_of(ctx));
  return contexts[pick_device(names, opts, [&](size_t i) { return contexts[i]; })];
}

PortChoice choose_port_and_gid(ibv_context* ctx, const TransportOptions& opts) {
  const std::string dev = device_name_of(ctx);
  PortChoice c;
  std::string states;
  c.port = first_active_port(ctx, opts.ib_port, states);
  if (c.port == 0) throw Error(dev + ": no ACTIVE port (" + states + ")");
  c.attr = query_port(ctx, c.port);
  const std::string where = dev + " port " + std::to_string(c.port);

  if (opts.gid_index >= 0) {
    ibv_gid_entry e{};
    const auto index = static_cast<uint32_t>(opts.gid_index);
    if (int rc = ibv_query_gid_ex(ctx, c.port, index, &e, 0); rc != 0) {
      throw_verbs_error(dev,
                        "ibv_query_gid_ex(port=" + std::to_string(c.port) +
                            ", index=" + std::to_string(index) + ")",
                        returned_errno(rc));
    }
    c.gid_index = opts.gid_index;
    c.gid = to_bytes(e.gid);
    c.gid_type = e.gid_type;
    if (gid_is_zero(c.gid)) {
      throw Error(where + ": GID index " + std::to_string(index) + " is empty");
    }
    return c;
  }

  const std::vector<ibv_gid_entry> table =
      gid_table(ctx, c.port, c.attr.gid_tbl_len, c.attr.link_layer == IBV_LINK_LAYER_ETHERNET);
  const ibv_gid_entry* best = nullptr;
  auto rank = [&](const ibv_gid_entry& e) {
    // Lower is better. InfiniBand: the port GID (index 0). Ethernet: RoCE v2 of an IPv4
    // address (routable, and what rdma_cm resolves to), then any RoCE v2.
    if (c.attr.link_layer != IBV_LINK_LAYER_ETHERNET) return e.gid_type == IBV_GID_TYPE_IB ? 0 : 9;
    if (e.gid_type != IBV_GID_TYPE_ROCE_V2) return 9;
    return gid_is_ipv4_mapped(to_bytes(e.gid)) ? 0 : 1;
  };
  for (const ibv_gid_entry& e : table) {
    if (gid_is_zero(to_bytes(e.gid)) || rank(e) == 9) continue;
    if (best == nullptr || rank(e) < rank(*best) ||
        (rank(e) == rank(*best) && e.gid_index < best->gid_index)) {
      best = &e;
    }
  }
  if (best == nullptr) {
    throw Error(where + ": no " +
                (c.attr.link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE v2" : "InfiniBand") +
                " GID in its table (" + std::to_string(table.size()) +
                " entries): give its network interface an IP address, or choose one with -x");
  }
  c.gid_index = static_cast<int>(best->gid_index);
  c.gid = to_bytes(best->gid);
  c.gid_type = best->gid_type;
  return c;
}

}  // namespace dlcnet::verbs

namespace dlcnet {

std::vector<std::string> active_verbs_devices() noexcept {
  std::vector<std::string> active;
  try {
    verbs::DeviceList list;
    for (int i = 0; i < list.size(); ++i) {
      try {
        verbs::Context ctx = verbs::open_device(list[i]);
        std::string states;
        if (verbs::first_active_port(ctx.get(), 0, states) != 0) {
          active.emplace_back(ibv_get_device_name(list[i]));
        }
      } catch (const Error&) {
        // A device we cannot open or query is not usable: leave it out.
      }
    }
  } catch (...) {
    active.clear();
  }
  return active;
}

}  // namespace dlcnet
