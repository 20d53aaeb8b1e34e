#include "fabric/star_links.hpp"

#include <algorithm>
#include <exception>
#include <thread>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "fabric/netns.hpp"
#include "fabric/qdisc_query.hpp"

namespace dlcnet::fabric {

std::vector<LinkReading> read_star_links(const std::string& prefix, int ranks) {
  if (prefix.empty()) throw Error("star links: no star prefix given");
  if (ranks < 1) throw Error("star links: no ranks to read");
  std::vector<LinkReading> out;
  std::exception_ptr failure;
  // setns() moves the calling thread: a thread of its own leaves the caller's namespace alone.
  std::thread reader([&] {
    try {
      for (int i = 0; i < ranks; ++i) {
        LinkReading r;
        r.netns = prefix + "-h" + std::to_string(i);
        r.dev = "h" + std::to_string(i);
        enter_netns(r.netns);
        QdiscQuery q(r.dev, r.netns);
        const QdiscReply reply = q.read();
        if (!reply.found) throw Error("star links: no root qdisc on " + r.dev + " in " + r.netns);
        r.kind = reply.kind;
        r.counters = reply.counters;
        r.counters.t_ns = now_ns();
        out.push_back(std::move(r));
      }
    } catch (...) {
      failure = std::current_exception();
    }
  });
  reader.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

nlohmann::json star_links_json(const std::string& prefix, const std::vector<LinkReading>& before,
                               const std::vector<LinkReading>& after) {
  if (before.size() != after.size())
    throw Error("star links: " + std::to_string(before.size()) + " links read at the start, " +
                std::to_string(after.size()) + " at the end");
  // Counters only grow while a qdisc lives; a smaller one means it was replaced in between.
  auto diff = [](uint64_t a, uint64_t b) { return b >= a ? b - a : b; };
  nlohmann::json links = nlohmann::json::array();
  uint64_t drops = 0, sent = 0;
  double duration = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    const LinkReading& a = before[i];
    const LinkReading& b = after[i];
    if (a.netns != b.netns || a.dev != b.dev)
      throw Error("star links: link " + std::to_string(i) + " is " + a.dev + " in " + a.netns +
                  " at the start, " + b.dev + " in " + b.netns + " at the end");
    const uint64_t d = diff(a.counters.drops, b.counters.drops);
    const uint64_t p = diff(a.counters.sent_packets, b.counters.sent_packets);
    drops += d;
    sent += p;
    duration = std::max(duration, ns_to_s(b.counters.t_ns - a.counters.t_ns));
    links.push_back({{"rank", i},
                     {"netns", b.netns},
                     {"dev", b.dev},
                     {"qdisc", b.kind},
                     {"drops", d},
                     {"sent_packets", p},
                     {"sent_bytes", diff(a.counters.sent_bytes, b.counters.sent_bytes)},
                     {"overlimits", diff(a.counters.overlimits, b.counters.overlimits)}});
  }
  return {{"prefix", prefix},
          {"duration_s", duration},
          {"drops", drops},
          {"sent_packets", sent},
          {"links", links}};
}

std::string star_links_line(const nlohmann::json& links) {
  std::string kinds, per;
  for (const auto& l : links.at("links")) {
    const std::string k = l.at("qdisc").get<std::string>();
    if (kinds.find(k) == std::string::npos) kinds += (kinds.empty() ? "" : ", ") + k;
    per +=
        ", " + l.at("dev").get<std::string>() + " " + std::to_string(l.at("drops").get<uint64_t>());
  }
  return "# star links: " + std::to_string(links.at("drops").get<uint64_t>()) + " drops of " +
         std::to_string(links.at("sent_packets").get<uint64_t>()) + " packets sent on " +
         std::to_string(links.at("links").size()) + " links (" + kinds + ")" + per;
}

}  // namespace dlcnet::fabric
