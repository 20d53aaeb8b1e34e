#include "patterns/ring/ring_analysis.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "patterns/ring/segments.hpp"

namespace dlcnet::ring {
namespace {

double bound_of(const ClockModel& m) {
  return m.same_clock ? 0.0 : m.uncertainty_ns;
}

}  // namespace

Row make_row(const CollectiveDef& def, const Layout& l, std::span<const SizeTimes> times) {
  Row row;
  row.count = l.count;
  row.bytes = l.count * sizeof(float);
  const size_t runs = times.empty() ? 0 : times[0].runs.size();
  std::vector<double> per_iteration(runs, 0.0);
  for (const SizeTimes& r : times) {
    row.wrong += r.wrong;
    row.checked += r.checked;
    for (size_t k = 0; k < runs && k < r.runs.size(); ++k) {
      per_iteration[k] += static_cast<double>(r.runs[k].end_ns - r.runs[k].entry_ns) * 1e-9;
    }
  }
  for (double& x : per_iteration) x /= static_cast<double>(std::max<size_t>(1, times.size()));
  row.iteration_s = summarize_latency(per_iteration);
  row.time_s = row.iteration_s.mean;
  row.cv = row.time_s > 0 ? row.iteration_s.stdev / row.time_s : 0;
  if (row.time_s > 0) {
    row.algbw = static_cast<double>(row.bytes) / row.time_s;
    row.busbw = row.algbw * def.bus_factor(l.ranks);
  }
  return row;
}

SizeResult analyse_size(const CollectiveDef& def, const Layout& l, std::span<const Plan> plans,
                        uint64_t segment_bytes, std::span<const SizeTimes> times,
                        std::span<const ClockModel> clocks) {
  SizeResult out;
  out.row = make_row(def, l, times);
  const size_t n = times.size();
  const size_t runs = n ? times[0].runs.size() : 0;

  std::vector<double> spans;
  for (size_t k = 0; k < runs; ++k) {
    double first = std::numeric_limits<double>::max(), last = 0;
    for (size_t r = 0; r < n; ++r) {
      first = std::min(first, clocks[r].to_reference(times[r].runs[k].entry_ns));
      last = std::max(last, clocks[r].to_reference(times[r].runs[k].end_ns));
    }
    spans.push_back((last - first) * 1e-9);
  }
  out.span_s = summarize_latency(spans);
  for (size_t r = 0; r < n; ++r) out.span_bound_s = std::max(out.span_bound_s, bound_of(clocks[r]));
  out.span_bound_s *= 2e-9;

  std::vector<Segments> segs;
  for (const Plan& p : plans) segs.push_back(cut(p, segment_bytes));
  const size_t steps = plans.empty() ? 0 : plans[0].steps.size();
  for (size_t i = 0; i < steps; ++i) {
    StepStat st;
    st.step = i;
    st.phase = plans[0].steps[i].phase;
    std::vector<double> all;
    std::map<std::pair<int, int>, std::vector<double>> by_link;
    for (size_t r = 0; r < n; ++r) {
      const Step& s = plans[r].steps[i];
      if (s.to < 0 || s.send.count == 0) continue;
      const auto to = static_cast<size_t>(s.to);
      st.bound_s = std::max(st.bound_s, (bound_of(clocks[r]) + bound_of(clocks[to])) * 1e-9);
      const uint32_t n_segs = pieces(s.send.count, segs[r].elems);
      for (size_t k = 0; k < runs; ++k) {
        const std::vector<SlotTimes>& mine = times[r].runs[k].slots;
        const std::vector<SlotTimes>& theirs = times[to].runs[k].slots;
        for (uint32_t j = 0; j < n_segs; ++j) {
          const size_t a = segs[r].base[i] + j, b = segs[to].base[i] + j;
          if (a >= mine.size() || b >= theirs.size()) continue;
          if (mine[a].post_ns < 0 || theirs[b].arrival_ns < 0) continue;
          const double lat = (clocks[to].to_reference(theirs[b].arrival_ns) -
                              clocks[r].to_reference(mine[a].post_ns)) *
                             1e-9;
          all.push_back(lat);
          by_link[{static_cast<int>(r), s.to}].push_back(lat);
          const double post = clocks[r].to_reference(mine[a].post_ns);
          out.flows.push_back({static_cast<int32_t>(r), s.to, static_cast<int32_t>(i),
                               static_cast<int32_t>(k),
                               segment(s.send, segs[r].elems, j).count * sizeof(float), post,
                               lat * 1e9, bound_of(clocks[r]) + bound_of(clocks[to])});
        }
      }
    }
    st.latency_s = summarize_latency(all);
    for (auto& [link, lats] : by_link) {
      const double m = median(lats);
      if (st.slow_src < 0 || m > st.slow_p50_s) {
        st.slow_src = link.first;
        st.slow_dst = link.second;
        st.slow_p50_s = m;
      }
    }
    out.steps.push_back(std::move(st));
  }
  return out;
}

}  // namespace dlcnet::ring
