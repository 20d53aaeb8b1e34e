#include "verbs/port_counters.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace dlcnet::verbs {
namespace {

namespace fs = std::filesystem;

// Reads every file of `dir` that holds one unsigned number. Returns false when `dir` is absent.
bool read_folder(const fs::path& dir, std::map<std::string, uint64_t>& out,
                 std::vector<std::string>& unreadable) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file(ec)) continue;
    std::ifstream f(e.path());
    uint64_t v = 0;
    std::string rest;
    if (f >> v && !(f >> rest)) {
      out[e.path().filename().string()] = v;
    } else {
      unreadable.push_back(dir.filename().string() + "/" + e.path().filename().string());
    }
  }
  return true;
}

nlohmann::json group_deltas(const std::map<std::string, uint64_t>& before,
                            const std::map<std::string, uint64_t>& after) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, a] : after) {
    const auto b = before.find(name);
    if (b == before.end()) continue;
    out[name] = a >= b->second ? nlohmann::json(a - b->second) : nlohmann::json();
  }
  return out;
}

}  // namespace

CounterSnapshot read_port_counters(const std::string& device, int port, const std::string& root) {
  CounterSnapshot s;
  s.device = device;
  s.port = port;
  const fs::path dir = fs::path(root) / device / "ports" / std::to_string(port);
  const bool ib = read_folder(dir / "counters", s.counters, s.unreadable);
  const bool hw = read_folder(dir / "hw_counters", s.hw_counters, s.unreadable);
  if (!ib && !hw) {
    throw Error("-W: " + device + " port " + std::to_string(port) + " has no counters in " +
                dir.string() + " (neither counters/ nor hw_counters/)");
  }
  return s;
}

nlohmann::json counter_deltas_json(const CounterSnapshot& before, const CounterSnapshot& after) {
  return {{"device", after.device},
          {"port", after.port},
          {"counters", group_deltas(before.counters, after.counters)},
          {"hw_counters", group_deltas(before.hw_counters, after.hw_counters)},
          {"unreadable", after.unreadable},
          {"note",
           "after - before, over the whole run with both ends' traffic on this port (warm-up, "
           "barriers, the other processes on the device); port_xmit_data and port_rcv_data "
           "count 4-byte words; null: the counter went down (reset or wrapped)"}};
}

std::string counter_deltas_text(const nlohmann::json& deltas) {
  std::ostringstream out;
  out << "# counters of " << deltas.value("device", std::string()) << " port "
      << deltas.value("port", 0) << " (after - before; zero ones omitted):\n";
  size_t shown = 0;
  for (const char* group : {"counters", "hw_counters"}) {
    for (const auto& [name, v] : deltas[group].items()) {
      if (v.is_number() && v.get<uint64_t>() == 0) continue;
      out << "#   " << group << '/' << name << ' ' << (v.is_null() ? "went down" : v.dump())
          << '\n';
      ++shown;
    }
  }
  if (shown == 0) out << "#   all unchanged\n";
  return out.str();
}

}  // namespace dlcnet::verbs
