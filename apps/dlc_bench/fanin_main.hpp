// `dlc-bench fanin ...`: the parameter-server incast, an N-rank job (patterns/fanin/).
#pragma once

namespace dlcnet::fanin {

int fanin_main(int argc, const char* const* argv);

}  // namespace dlcnet::fanin
