#include "runner/runner.hpp"

#include <algorithm>
#include <functional>
#include <iostream>
#include <optional>

#include "core/error.hpp"
#include "core/log_line.hpp"
#include "core/memory_budget.hpp"
#include "core/run_context.hpp"
#include "core/stall_error.hpp"
#include "core/tcp_stack.hpp"
#include "fabric/star_links.hpp"
#include "flows/flow_export.hpp"
#include "flows/flow_report.hpp"
#include "flows/hpcc_fct.hpp"
#include "launch/rank_cpu.hpp"
#include "launch/transport_select.hpp"
#include "model/calibration.hpp"
#include "model/measured_fct.hpp"
#include "runner/rank_outputs.hpp"
#include "runner/rank_stack.hpp"
#include "runner/report_frame.hpp"

namespace dlcnet::runner {
namespace {

std::string join_values(const nlohmann::json& errors) {
  std::string s;
  for (const auto& [key, text] : errors.items())
    s += (s.empty() ? "" : "; ") + text.get<std::string>();
  return s;
}

class Run {
 public:
  Run(const NRankOptions& o, const std::string& tool, Pattern& p, Job& job,
      const model::Calibration* calibration, int argc, const char* const* argv)
      : o_(o),
        tool_(tool),
        p_(p),
        job_(job),
        calibration_(calibration),
        argc_(argc),
        argv_(argv),
        me_(o.env.rank),
        world_(o.env.world_size) {}

  int operator()();

 private:
  nlohmann::json context() const;
  void records();
  [[noreturn]] void fail(RankContext& c, const std::exception& e);
  int report(RankContext& c, const std::vector<Bytes>& gathered,
             const std::vector<ClockModel>& clocks, const ReleaseReport& release);

  const NRankOptions& o_;
  const std::string& tool_;
  Pattern& p_;
  Job& job_;
  const model::Calibration* calibration_;
  int argc_;
  const char* const* argv_;
  int me_, world_;
  std::optional<RankOutputs> out_;
  std::optional<FlowExport> flows_out_;
  std::vector<fabric::LinkReading> links_before_;
  std::optional<TransportChoice> choice_;
  std::optional<CpuBinding> cpu_;
  TransportOptions topts_;
  Idle idle_ = Idle::spin;
  nlohmann::json stacks_;  // rank 0: every rank's TCP stack (runner/rank_stack.hpp), once gathered
};

int Run::operator()() {
  // The ranks' links (netem on a namespace star) over the whole job, from before the connect.
  if (me_ == 0 && !o_.star_links.empty())
    links_before_ = fabric::read_star_links(o_.star_links, world_);
  out_.emplace(RankOutputPaths{o_.json_path, o_.records_path, o_.fct_path}, me_, world_);
  flows_out_.emplace(me_ == 0 ? o_.export_flows : std::string());
  p_.use_records(out_->records());

  topts_ = o_.transport;
  topts_.recv_depth = std::max({topts_.recv_depth, p_.receives_needed(), o_.clock_samples + 16});
  apply_timeout(topts_, o_.timeout_s);
  // Only when asked for: UCX's wake-up feature may narrow the lanes it picks.
  topts_.wakeup = o_.idle == IdlePolicy::block;
  choice_.emplace(open_transport(o_.transport_kind, topts_));
  Transport& t = *choice_->transport;
  // Before the buffers are allocated: auto also places this thread's new memory.
  cpu_.emplace(bind_rank_thread(o_.cpu, *choice_, static_cast<unsigned>(job_.slot_on_this_host()),
                                static_cast<unsigned>(job_.ranks_on_this_host()),
                                tool_ + ": rank " + std::to_string(me_), o_.quiet));

  const Agreement a = p_.agreement();
  const std::string differs = " another " + a.what + ": start every rank with the same options";
  std::string fields;
  for (const auto& [name, value] : a.fields) fields += name + " " + value + "\n";
  if (!fields.empty()) fields.pop_back();
  p_.agreed(job_.agree(a.fingerprint, p_.limit_offer(t.max_message_size()), "runs" + differs,
                       "run" + differs, fields));
  const MemoryNeed need = p_.memory();
  check_registered_memory(need.bytes, me_, job_.ranks_on_this_host(), need.detail, need.fix);
  const RegionId clock_region = t.allocate_memory(64).region;
  p_.allocate(t);
  job_.connect(t, p_.peers());
  idle_ = job_.idle_for(o_.idle, t);
  job_.align_clocks(t, clock_region, idle_);

  RankContext c{
      job_, t, idle_, choice_->chosen, choice_->reason, me_, world_, me_ == 0 && !o_.quiet};
  p_.prepare(c);
  try {
    p_.run(c, job_.release(p_.release(), idle_));
  } catch (const std::exception& e) {
    fail(c, e);
  }
  job_.bootstrap().barrier();  // the clock ping-pongs need a quiet transport
  job_.align_clocks(t, clock_region, idle_);
  const std::vector<ClockModel> clocks = job_.clock_models();
  const ReleaseReport release = job_.release_report();
  std::vector<Bytes> gathered = job_.gather(with_stack(read_tcp_stack(), p_.finish(c, clocks)));
  if (me_ != 0) {
    records();
    return job_.verdict(true);
  }
  stacks_ = stacks_json(take_stacks(gathered));
  return report(c, gathered, clocks, release);
}

nlohmann::json Run::context() const {
  nlohmann::json ctx = job_run_context(tool_, argc_, argv_, *choice_->transport, *choice_, *cpu_,
                                       world_, o_.env.source, idle_);
  ctx["coordinator"] = o_.env.coordinator_host + ":" + std::to_string(job_.port());
  nlohmann::json hosts = nlohmann::json::array();
  for (const HostIdentity& h : job_.hosts()) hosts.push_back(h.hostname);
  ctx["hosts"] = hosts;
  ctx["send_depth"] = topts_.send_depth;
  if (!stacks_.is_null()) ctx["tcp_stacks"] = stacks_;
  p_.add_context(ctx);
  return ctx;
}

// This rank's records of what it completed: all of it, or what came before a failure.
void Run::records() {
  if (!out_->records()) return;
  p_.write_records(*out_->records());
  out_->records()->flush();
}

void Run::fail(RankContext& c, const std::exception& e) {
  // A rank stopped or failed during the run: every rank's records hold what it completed
  // before; rank 0's JSON says how far the job got, marked incomplete.
  const std::string cause = job_.settle_failure(e.what(), stalled_on(e));
  write_each({[&] { records(); },
              [&] {
                if (me_ != 0 || !out_->json()) return;
                nlohmann::json doc = incomplete_report(cause, context(), job_, *out_);
                const std::string done = p_.incomplete(c, doc);
                doc["complete"] = false;
                doc["error"] = cause;
                write_json_file(*out_->json(), doc);
                log_line(tool_ + ": " + out_->json()->name() + ": " + done +
                         " before the failure, marked incomplete");
              }});
  throw Error(cause);
}

int Run::report(RankContext& c, const std::vector<Bytes>& gathered,
                const std::vector<ClockModel>& clocks, const ReleaseReport& release) {
  nlohmann::json links;
  if (!o_.star_links.empty()) {
    links = fabric::star_links_json(o_.star_links, links_before_,
                                    fabric::read_star_links(o_.star_links, world_));
  }
  const bool want_groups = flows_out_->wanted();
  PatternReport r = p_.report(c, gathered, clocks, want_groups);
  if (c.print) {
    if (!links.is_null()) std::cout << fabric::star_links_line(links) << '\n';
    print_clocks(std::cout, job_.clock_reports(), release);
    std::cout << job_.phases_line() << '\n';
    std::cout.flush();
  }
  const FlowMap fmap = flow_map_of(r.flows, r.groups, tool_, r.group_kind);
  // Every output is tried even when another failed (a full disk); the JSON, written last, names
  // those that failed under "unwritten" and lists only files that were written.
  nlohmann::json unwritten = nlohmann::json::object();
  auto noting = [&](const char* key, const std::function<void()>& write) {
    return [&unwritten, key, write] {
      try {
        write();
      } catch (const Error& e) {
        unwritten[key] = e.what();
        throw;
      }
    };
  };
  auto json = [&] {
    nlohmann::json doc = std::move(r.body);
    doc["complete"] = true;
    doc["context"] = context();
    doc["clock"] = clocks_json(job_.clock_reports());
    doc["release"] = release.to_json();
    doc["phases_s"] = job_.phases_json();
    doc["setup"] = job_.setup_json();
    if (!links.is_null()) doc["star_links"] = links;
    // Time zero of --export-flows' flow.txt and of --fct (the first post of any message) on
    // the clock of every other time here: a prediction's time axis maps onto this one by it.
    if (!fmap.flows.empty()) doc["flow_origin_s"] = fmap.origin_ns * 1e-9;
    doc["files"] = out_->files_json();
    if (!o_.export_flows.empty()) {
      doc["files"]["flows"] = o_.export_flows;
      doc["files"]["flow_map"] = flow_map_path(o_.export_flows);
    }
    if (unwritten.contains("flows")) doc["files"]["flows"] = doc["files"]["flow_map"] = nullptr;
    if (unwritten.contains("fct")) doc["files"]["fct"] = nullptr;
    if (unwritten.contains("records")) doc["files"]["records"][0] = nullptr;
    if (!unwritten.empty()) {  // measured whole, but not all of it reached its files
      doc["complete"] = false;
      doc["error"] = "outputs not written: " + join_values(unwritten);
      doc["unwritten"] = unwritten;
    }
    return doc;
  };
  write_each({noting("records", [&] { records(); }),
              noting("flows",
                     [&] {
                       if (flows_out_->wanted()) flows_out_->write(fmap);
                     }),
              noting("fct",
                     [&] {
                       if (!out_->fct()) return;
                       write_stream(*out_->fct(), [&](std::ostream& f) {
                         write_fct_txt(f, model::measured_fct(fmap, *calibration_));
                       });
                     }),
              [&] {
                if (out_->json()) write_json_file(*out_->json(), json());
              }});
  return job_.verdict(r.ok);
}

}  // namespace

int run_rank(const NRankOptions& o, const std::string& tool, Pattern& pattern, int argc,
             const char* const* argv) {
  // Read before anything is measured: a bad calibration must not cost the run.
  std::optional<model::Calibration> calibration;
  if (!o.calibration_path.empty()) calibration = model::read_calibration(o.calibration_path);
  if (!o.fct_path.empty() && !calibration) throw Error("--fct needs --calibration");
  JobConfig jc = job_config(o.env, std::chrono::seconds(o.timeout_s));
  jc.clock_samples = o.clock_samples;
  const model::Calibration* cal = calibration ? &*calibration : nullptr;
  return run_job(jc, [&](Job& job) { return Run(o, tool, pattern, job, cal, argc, argv)(); });
}

}  // namespace dlcnet::runner
