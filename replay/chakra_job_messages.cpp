#include "replay/chakra_job_messages.hpp"

#include <vector>

#include "replay/chakra_plan.hpp"

namespace dlcnet::replay {

JobMessages chakra_job_messages(const trace::chakra::Job& job, const PlanOptions& options,
                                const trace::chakra::CollectiveOptions& coll) {
  check_chakra_replayable(job, coll);
  std::vector<RankPlan> plans;
  plans.reserve(static_cast<size_t>(job.world));
  for (int r = 0; r < job.world; ++r) plans.push_back(build_chakra_plan(job, r, options, coll));
  return plan_messages(plans, options.mode);
}

}  // namespace dlcnet::replay
