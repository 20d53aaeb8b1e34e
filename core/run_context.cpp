#include "core/run_context.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <thread>

#include "core/clock.hpp"
#include "core/star_description.hpp"
#include "core/tcp_stack.hpp"

namespace dlcnet {
namespace {

// What a time in nanoseconds means in every report and records file (core/clock.hpp).
constexpr const char* kClockTimes =
    "nanoseconds of the recording process's own clock (now_ns()): with source tsc, the TSC "
    "scaled by a factor calibrated against CLOCK_MONOTONIC at the process's start-up and "
    "anchored to CLOCK_MONOTONIC then, so it reads as CLOCK_MONOTONIC (on Linux, time since "
    "boot) give or take the calibration error, which grows with the time since start-up and "
    "differs between processes; with source CLOCK_MONOTONIC, CLOCK_MONOTONIC itself. Not "
    "comparable across hosts, nor exactly across processes, without a measured mapping: "
    "dlc-replay's JSON maps every rank's clock to rank 0's (\"clock\", per rank: offset_s, "
    "drift, at_s, uncertainty_s)";

}  // namespace

nlohmann::json make_run_context(const std::string& tool, int argc, const char* const* argv) {
  nlohmann::json ctx;
  ctx["schema_version"] = kReportSchemaVersion;
  ctx["tool"] = tool;
  ctx["tool_version"] = DLCNET_VERSION;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  ctx["host"] = host;
  std::time_t t = std::time(nullptr);
  char date[32];
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  ctx["date"] = date;
  nlohmann::json args = nlohmann::json::array();
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  ctx["argv"] = args;
  ctx["libibverbs_version"] = DLCNET_RDMA_CORE_VERSION;
  utsname u{};
  if (uname(&u) == 0) ctx["kernel"] = std::string(u.sysname) + " " + u.release + " " + u.machine;
  ctx["cpus"] = std::thread::hardware_concurrency();
  ctx["clock"] = {{"source", clock_description()}, {"times", kClockTimes}};
  ctx["tcp_stack"] = read_tcp_stack();
  nlohmann::json star = read_star_description(own_netns_name());
  if (!star.is_null()) ctx["star"] = std::move(star);
  return ctx;
}

void write_json_file(OutputFile& out, const nlohmann::json& doc) {
  out.put(doc.dump(2));
  out.put("\n");
  out.commit();
}

}  // namespace dlcnet
