// qdisc-probe DEV NETNS SECONDS [RATE_HZ] [SERIES_JSON]: samples the root qdisc of DEV in
// network namespace NETNS ("" or "-": the current one) for SECONDS and prints
// {"device", "netns", "rate_hz", "summary": {...}} on stdout; with SERIES_JSON, also writes
// the series there. Exit 1 with the sampler's message on stderr when it fails.
#include <chrono>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "core/error.hpp"
#include "fabric/qdisc_json.hpp"
#include "fabric/qdisc_sampler.hpp"
#include "fabric/qdisc_summary.hpp"

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
    QdiscSampler sampler(dev, netns, rate);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
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
