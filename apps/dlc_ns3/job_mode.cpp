// dlc-ns3-predict --job JOB --like RUN.map --calibration C.json --run RUN.json --out fct.txt:
// ns-3's prediction of a DLC job replayed on the namespace star, closed loop (job_sim.hpp):
// the replay's plan as messages (apps/job_plan_options.hpp, as dlc-compare predict-job), the
// star mirrored from the run's JSON as in the open loop, and fct.txt named after the replay's
// flow map (compare/named_fct.hpp) for `dlc-compare RUN.map fct.txt --free-starts`.
#include <algorithm>
#include <ctime>
#include <iostream>
#include <memory>
#include <vector>

#include "apps/cli_main.hpp"
#include "apps/dlc_ns3/job_sim.hpp"
#include "apps/dlc_ns3/mirror_checks.hpp"
#include "apps/dlc_ns3/predict_options.hpp"
#include "apps/dlc_ns3/star_outputs.hpp"
#include "compare/named_fct.hpp"
#include "core/distinct_files.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "flows/flow_map.hpp"
#include "model/calibration.hpp"

namespace dlcnet::ns3p {
namespace {

std::vector<Transfer> transfers_of(std::span<const model::Message> messages) {
  std::vector<Transfer> t;
  t.reserve(messages.size());
  for (const model::Message& m : messages) t.push_back({m.src, m.dst, m.bytes});
  return t;
}

// "message 3 (key 5, opnum 2)": a message as the replay's records and flow map name it.
TransferNames job_names(const PredictOptions& o, const replay::JobMessages& jm) {
  const std::string file = o.job.inputs.size() == 1 ? o.job.inputs[0] : "JOB";
  return {file, [&jm](size_t i) {
            return "message " + std::to_string(i) + " (key " + std::to_string(jm.key[i]) +
                   ", opnum " + std::to_string(jm.opnum[i]) + ")";
          }};
}

// The simulated times as the model's, for name_prediction: posted, and the last byte read.
model::Prediction as_prediction(const JobTimes& t) {
  model::Prediction p;
  for (size_t i = 0; i < t.start_s.size(); ++i) {
    p.messages.push_back({t.start_s[i], t.start_s[i], t.arrival_s[i], t.arrival_s[i]});
  }
  return p;
}

}  // namespace

int run_job(const PredictOptions& o) {
  std::vector<NamedPath> files;
  for (const std::string& path : o.job.inputs) files.push_back({"--job", path});
  files.push_back({"--like", o.like});
  files.push_back({"--calibration", o.calibration});
  files.push_back({"--run", o.run});
  files.push_back({"--out", o.out, true});
  files.push_back({"--queue", o.queue, true});
  try {
    check_distinct_files(files);
  } catch (const Error& e) {
    throw cli::UsageError(e.what());
  }
  OutputFile fct("--out", o.out);
  const std::unique_ptr<OutputFile> queue = open_output("--queue", o.queue);
  const model::Calibration c = model::read_calibration(o.calibration);
  StarNetwork net{o.hosts, o.rank_link_Bps, c.base_latency_s, read_run_settings(o.run)};
  const FlowMap like = read_flow_map(o.like);
  const cli::PlannedJob planned = cli::plan_job_messages(o.job);
  const replay::JobMessages& jm = planned.messages;
  const TransferNames names = job_names(o, jm);
  const uint32_t needed =
      std::max(planned.ranks,
               check_mirrorable(net.run, transfers_of(jm.messages), names, o.allow_rendezvous));
  net.hosts = star_hosts(o.hosts, needed, names.file);

  const std::clock_t cpu0 = std::clock();
  const JobTimes t = simulate_job(net, jm.messages);
  const double cpu_s = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const compare::NamedFct named = compare::name_prediction(like, jm.messages, jm.key, jm.opnum,
                                                           as_prediction(t), c.base_latency_s, c);
  write_stream(fct, [&](std::ostream& out) { write_fct_txt(out, named.records); });
  if (queue) write_stream(*queue, [&](std::ostream& out) { write_queue_csv(out, t.queue); });
  double end_s = named.origin_s;
  for (double a : t.arrival_s) end_s = std::max(end_s, a);
  std::cout << "dlc-ns3-predict: " << jm.messages.size() << " messages (" << o.job.mode << ") on "
            << describe_star(net) << " simulated in " << cpu_s << " s CPU, from 0 to "
            << (end_s - named.origin_s) * 1e3 << " ms; " << named.records.size() << " named after "
            << o.like;
  if (named.unnamed > 0) std::cout << ", " << named.unnamed << " not in it (left out)";
  std::cout << "; fct.txt in " << o.out << '\n';
  return 0;
}

}  // namespace dlcnet::ns3p
