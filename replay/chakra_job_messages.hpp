// A Chakra job as the reference model's messages (replay/job_messages.hpp): every rank's plan as
// dlc-replay builds it (replay/chakra_plan.hpp), resolved the same way as a SketchDLC job's.
// Messages are named as the replay names them: key the sending node's id, opnum the step's
// place in it (docs/chakra.md, "Records, flows and the report").
#pragma once

#include "replay/job_messages.hpp"
#include "trace/chakra/chakra_collectives.hpp"
#include "trace/chakra/chakra_model.hpp"

namespace dlcnet::replay {

// Throws Error naming the file, the node and the field for what the replay refuses
// (check_chakra_replayable). `job` must be clean (trace::chakra::read_job).
JobMessages chakra_job_messages(const trace::chakra::Job& job, const PlanOptions& options,
                                const trace::chakra::CollectiveOptions& coll);

}  // namespace dlcnet::replay
