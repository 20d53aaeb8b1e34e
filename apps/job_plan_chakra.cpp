// plan_job_messages on a Chakra job: the options dlc-replay takes for one (--coll-size, --root,
// --comm-groups, --mode, --time-scale), the refusals it makes, and the job's messages
// (replay/chakra_job_messages.hpp).
#include <string>

#include "apps/cli_main.hpp"
#include "apps/job_plan_options.hpp"
#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "replay/chakra_job_messages.hpp"
#include "replay/chakra_plan.hpp"
#include "trace/chakra/chakra_loader.hpp"

namespace dlcnet::cli {
namespace {

namespace ck = trace::chakra;

// A refusal of the command line (exit 2) in the replay's own words.
template <typename Check>
void as_usage_error(Check check) {
  try {
    check();
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

PlannedJob plan_chakra_job_messages(const JobPlanOptions& o, const replay::PlanOptions& po) {
  as_usage_error([&] { replay::check_chakra_job_options(o.map_spec, o.iterations); });
  const ck::CollectiveOptions coll = o.collectives.options();
  const ck::Job job = ck::read_job(o.inputs, coll.comm_groups);
  if (job.ranks.empty()) throw Error("the Chakra job has no rank");
  as_usage_error([&] { replay::check_chakra_root(job, coll.root); });
  const uint64_t messages = replay::chakra_messages(job, coll).count;
  check_fits_in_memory(messages, 2 * kModelBytesPerRecord,
                       "the Chakra job: predicting " + std::to_string(messages) +
                           " messages (its collectives' steps included)");
  return {static_cast<uint32_t>(job.world), replay::chakra_job_messages(job, po, coll)};
}

}  // namespace dlcnet::cli
