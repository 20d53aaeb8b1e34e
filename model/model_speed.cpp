#include "model/model_speed.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "core/clock.hpp"
#include "model/calibration.hpp"
#include "model/network.hpp"
#include "model/predict.hpp"

namespace dlcnet::model {
namespace {

double per_cpu_s(const ModelSpeed& s, const SpeedRun& r) {
  return static_cast<double>(s.messages) / r.cpu_s;
}

}  // namespace

ModelSpeed time_model(const MixSpec& mix, int repeat, std::ostream& progress) {
  const std::vector<Message> messages = workload_mix(mix);
  Calibration c;
  c.link_rate_Bps = mix.link_rate_Bps;
  c.base_latency_s = 2e-6;
  c.overhead_s = 1e-6;
  const Network net = uniform_network(mix.hosts, c);
  ModelSpeed s;
  s.messages = messages.size();
  for (int r = 0; r < repeat; ++r) {
    const double cpu0 = thread_cpu_s();
    const auto t0 = std::chrono::steady_clock::now();
    s.prediction = predict(net, c, messages);
    SpeedRun run;
    run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run.cpu_s = thread_cpu_s() - cpu0;
    s.runs.push_back(run);
    const Prediction& p = s.prediction;
    progress << "model-speed: " << messages.size() << " messages in " << run.cpu_s << " s of CPU ("
             << run.wall_s << " s wall): " << per_cpu_s(s, run) << " messages per CPU second; "
             << p.events << " events, " << p.solves << " solves of "
             << static_cast<double>(p.solved_pairs) / static_cast<double>(p.solves)
             << " pairs on average, " << p.end_s - p.begin_s << " s modelled\n";
  }
  return s;
}

nlohmann::json model_speed_report(nlohmann::json context, const MixSpec& mix,
                                  const ModelSpeed& speed) {
  const Prediction& p = speed.prediction;
  nlohmann::json runs = nlohmann::json::array();
  double best = 0;
  for (const SpeedRun& r : speed.runs) {
    const double rate = per_cpu_s(speed, r);
    best = std::max(best, rate);
    runs.push_back({{"wall_s", r.wall_s},
                    {"cpu_s", r.cpu_s},
                    {"messages_per_cpu_s", rate},
                    {"messages_per_wall_s", static_cast<double>(speed.messages) / r.wall_s}});
  }
  nlohmann::json doc;
  doc["context"] = std::move(context);
  doc["workload"] = {{"messages", speed.messages},
                     {"hosts", mix.hosts},
                     {"keys", mix.keys},
                     {"seed", mix.seed},
                     {"link_rate_Bps", mix.link_rate_Bps},
                     {"background_load", mix.background_load}};
  doc["events"] = p.events;
  doc["solves"] = p.solves;
  doc["mean_pairs_per_solve"] =
      p.solves ? static_cast<double>(p.solved_pairs) / static_cast<double>(p.solves) : 0;
  doc["modelled_s"] = p.end_s - p.begin_s;
  doc["runs"] = runs;
  doc["best_messages_per_cpu_s"] = best;
  return doc;
}

}  // namespace dlcnet::model
