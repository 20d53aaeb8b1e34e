#include "model/workload_mix.hpp"

#include <cmath>
#include <random>

#include "core/error.hpp"

namespace dlcnet::model {
namespace {

uint64_t log_uniform(std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(std::log(lo), std::log(hi));
  return static_cast<uint64_t>(std::exp(u(rng)));
}

}  // namespace

std::vector<Message> workload_mix(const MixSpec& s) {
  if (s.hosts < 2 || s.keys == 0) throw Error("workload mix: at least 2 hosts and 1 key");
  std::mt19937_64 rng(s.seed);
  const uint32_t workers = s.hosts - 1;
  std::vector<uint64_t> key_bytes(s.keys);
  for (uint64_t& b : key_bytes) b = log_uniform(rng, 4096, 1 << 20);
  const uint64_t per_iteration = 2ull * workers * s.keys;
  const uint64_t iterations = std::max<uint64_t>(1, s.messages / 2 / per_iteration);
  std::vector<Message> m;
  m.reserve(iterations * per_iteration + s.messages / 2 + 1);
  // The job: per iteration and worker, its pushes (after its previous pulls) then the pulls.
  std::vector<uint32_t> last_pulls;  // of the previous iteration, per worker: keys positions
  for (uint64_t it = 0; it < iterations; ++it) {
    std::vector<uint32_t> pulls;
    pulls.reserve(workers * s.keys);
    for (uint32_t w = 1; w <= workers; ++w) {
      for (uint32_t k = 0; k < s.keys; ++k) {
        Message push;
        push.id = m.size();
        push.src = w;
        push.dst = 0;
        push.bytes = key_bytes[k];
        if (it > 0) {
          for (uint32_t j = 0; j < s.keys; ++j)
            push.after.push_back(last_pulls[(w - 1) * s.keys + j]);
          push.think_s = s.compute_s;
        }
        m.push_back(push);
        Message pull;
        pull.id = m.size();
        pull.src = 0;
        pull.dst = w;
        pull.bytes = key_bytes[k];
        pull.after = {static_cast<uint32_t>(m.size() - 1)};
        pull.think_s = s.server_think_s;
        pulls.push_back(static_cast<uint32_t>(m.size()));
        m.push_back(pull);
      }
    }
    last_pulls = std::move(pulls);
  }
  // Background: Poisson arrivals over about the job's duration at the asked load per link.
  const uint64_t background = s.messages > m.size() ? s.messages - m.size() : 0;
  const double mean_bytes = (double{1 << 20} - 1024) / std::log(double{1 << 10});  // log-uniform
  const double rate_per_s = s.background_load * s.link_rate_Bps * s.hosts / mean_bytes;
  std::exponential_distribution<double> gap(rate_per_s);
  std::uniform_int_distribution<uint32_t> host(0, s.hosts - 1);
  double t = 0;
  for (uint64_t i = 0; i < background; ++i) {
    Message b;
    b.id = m.size();
    b.src = host(rng);
    do b.dst = host(rng);
    while (b.dst == b.src);
    b.bytes = log_uniform(rng, 1024, 1 << 20);
    t += gap(rng);
    b.start_s = t;
    m.push_back(std::move(b));
  }
  return m;
}

}  // namespace dlcnet::model
