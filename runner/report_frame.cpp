#include "runner/report_frame.hpp"

#include "core/run_context.hpp"

namespace dlcnet {

nlohmann::json job_run_context(const std::string& tool, int argc, const char* const* argv,
                               const Transport& t, const TransportChoice& choice,
                               const CpuBinding& cpu, int world, const std::string& rank_source,
                               Idle idle) {
  nlohmann::json ctx = make_run_context(tool, argc, argv);
  add_transport_versions(ctx);
  ctx["transport"] = t.describe();
  ctx["transport_selection"] = choice.to_json();
  ctx["cpu"] = cpu.to_json();  // rank 0's
  ctx["world_size"] = world;
  ctx["rank_source"] = rank_source;
  ctx["idle"] = to_string(idle);
  return ctx;
}

nlohmann::json incomplete_report(const std::string& cause, nlohmann::json context, const Job& job,
                                 const RankOutputs& out) {
  nlohmann::json doc = {{"complete", false}, {"error", cause}};
  doc["context"] = std::move(context);
  doc["phases_s"] = job.phases_json();
  doc["setup"] = job.setup_json();
  doc["files"] = out.files_json();
  return doc;
}

}  // namespace dlcnet
