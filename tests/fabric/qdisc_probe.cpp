// qdisc-probe DEV NETNS SECONDS [RATE_HZ] [SERIES_JSON]: samples the root qdisc of DEV in
// network namespace NETNS ("-": the current one) for SECONDS, or until SIGINT or SIGTERM
// (whichever comes first), and prints {"device", "netns", "rate_hz", "summary": {...}} on
// stdout; with SERIES_JSON, also writes the series there. Exit 1 with the sampler's message
// on stderr when it fails.
#include <signal.h>

#include <cerrno>
#include <cmath>
#include <fstream>
#include <iostream>
#include <string>

#include "core/error.hpp"
#include "fabric/qdisc_json.hpp"
#include "fabric/qdisc_sampler.hpp"
#include "fabric/qdisc_summary.hpp"

namespace {

// Blocks SIGINT and SIGTERM in this thread and the threads it starts from here on.
sigset_t block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

// Waits `seconds` or until one of `set` arrives.
void wait_for_stop(const sigset_t& set, double seconds) {
  const double whole = std::floor(seconds);
  timespec timeout{static_cast<time_t>(whole), static_cast<long>((seconds - whole) * 1e9)};
  while (sigtimedwait(&set, nullptr, &timeout) < 0 && errno == EINTR) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dlcnet::fabric;
  if (argc < 4 || argc > 6) {
    std::cerr << "usage: qdisc-probe DEV NETNS SECONDS [RATE_HZ] [SERIES_JSON]\n";
    return 2;
  }
  try {
    const std::string dev = argv[1];
    const std::string netns = std::string(argv[2]) == "-" ? "" : argv[2];
    const double seconds = std::stod(argv[3]);
    const double rate = argc > 4 ? std::stod(argv[4]) : 10000;
    const sigset_t stop_signals = block_stop_signals();
    QdiscSampler sampler(dev, netns, rate);
    sampler.start();
    wait_for_stop(stop_signals, seconds);
    const auto samples = sampler.stop();
    const nlohmann::json out = {{"device", dev},
                                {"netns", netns},
                                {"rate_hz", rate},
                                {"summary", summary_json(summarize(samples))}};
    std::cout << out.dump() << '\n';
    if (argc > 5) std::ofstream(argv[5]) << series_json(samples).dump() << '\n';
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "qdisc-probe: " << e.what() << '\n';
    return 1;
  }
}
