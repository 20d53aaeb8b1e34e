// The ranks' own links on a star of network namespaces (scripts/netns-star.sh): device h<i> in
// namespace PREFIX-h<i>, whose root qdisc is the netem of `netns-star.sh up --netem`. A run reads
// every link's counters once at its start and once at its end; the difference is what the
// links did to the run's traffic: the packets netem dropped (its loss) and those it sent.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fabric/qdisc_sample.hpp"

namespace dlcnet::fabric {

struct LinkReading {
  std::string netns, dev;  // PREFIX-h<i>, h<i>
  std::string kind;        // the root qdisc's: "netem", ...
  QdiscSample counters;    // t_ns: now_ns() when read
};

// One reading of the root qdisc of h<i> in PREFIX-h<i>, i = 0 .. ranks-1 (from a thread of its
// own, which enters each namespace in turn: the caller's stays where it is). Throws Error
// naming the namespace or device when one is missing or has no queue (noqueue: a star brought
// up without --netem).
std::vector<LinkReading> read_star_links(const std::string& prefix, int ranks);

// {"prefix": P, "duration_s": ..., "drops": <sum>, "sent_packets": <sum>, "links": [{"rank": i,
// "netns": ..., "dev": ..., "qdisc": "netem", "drops": ..., "sent_packets": ..., "sent_bytes":
// ..., "overlimits": ...}]}: after minus before, link by link (both from read_star_links over
// the same star). Throws Error when the two readings are not of the same links.
nlohmann::json star_links_json(const std::string& prefix, const std::vector<LinkReading>& before,
                               const std::vector<LinkReading>& after);

// "# star links: 120 drops of 5193 packets on 4 links (netem), h0 30, h1 40, ...": for the
// console, from star_links_json's document.
std::string star_links_line(const nlohmann::json& links);

}  // namespace dlcnet::fabric
