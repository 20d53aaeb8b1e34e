// `dlc-bench ring ...`: the collectives of training jobs, an N-rank job (patterns/ring/).
#pragma once

namespace dlcnet::ring {

int ring_main(int argc, const char* const* argv);

}  // namespace dlcnet::ring
