// --star-links PREFIX, the same in every tool that runs ranks on a namespace star (dlc-bench
// fanin and ring, dlc-replay; fabric/star_links.hpp, docs/fabric.md).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace dlcnet::cli {

inline void add_star_links_option(CLI::App& app, std::string& prefix) {
  app.add_option("--star-links", prefix,
                 "rank 0 reads the root qdisc (netem) of every rank's link h<i> in PREFIX-h<i> of "
                 "a namespace star (scripts/netns-star.sh) at the job's start and end: drops "
                 "and packets in the JSON's star_links");
}

}  // namespace dlcnet::cli
