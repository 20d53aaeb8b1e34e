// The active flows of one (source, destination) pair. In a star every flow of a pair crosses
// the same two links, so max-min gives them one rate: the model solves per pair (weight: the
// number of flows) and follows each flow in the pair's virtual time, `served`, the bytes every
// flow of the pair has received since the pair became active. A flow joining at served = s
// with b bytes is done at served = s + b; the pair's next completion is its heap's top.
// With `fifo` the pair is one connection (an RC queue pair, a TCP stream): its flows are served
// one after another in the order they joined, so the pair weighs 1 in the solve, `served` counts
// the pair's bytes and a flow is done at served = (the previous flow's end, or s) + b.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace dlcnet::model {

struct PairFlows {
  uint32_t src = 0, dst = 0;
  double served = 0;                              // bytes per flow since the pair became active
  double rate = 0;                                // bytes per second per flow, from the last solve
  uint32_t active_at = 0;                         // position in the list of active pairs
  bool fifo = false;                              // one connection: flows in joining order
  double flows_weight = 0;                        // weight(), kept up to date by add and pop
  double tail = 0;                                // fifo: served at the last flow's end
  std::vector<std::pair<double, uint32_t>> heap;  // (served at completion, message), min first

  size_t count() const noexcept { return heap.size(); }
  // The pair's weight in the max-min solve: its flows, or 1 for a connection.
  double weight() const noexcept { return flows_weight; }
  void add(uint32_t message, double wire_bytes) {
    tail = (fifo ? std::max(served, tail) : served) + wire_bytes;
    heap.emplace_back(tail, message);
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
    reweigh();
  }
  // Seconds until the next completion at the current rate.
  double next_done() const noexcept {
    if (heap.empty() || rate <= 0) return std::numeric_limits<double>::infinity();
    return std::max(0.0, heap.front().first - served) / rate;
  }
  // The next flow to complete, if it is done within `tolerance` of its bytes (plus as many
  // bytes) or within `slack_s` seconds at the pair's rate (times too close to tell apart).
  bool pop_done(double tolerance, double slack_s, uint32_t& message) {
    if (heap.empty()) return false;
    const double left = heap.front().first - served;
    if (left > tolerance * (1 + heap.front().first) && left > rate * slack_s) return false;
    message = heap.front().second;
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    heap.pop_back();
    if (heap.empty()) served = tail = 0;
    reweigh();
    return true;
  }

 private:
  void reweigh() noexcept {
    flows_weight = fifo ? (heap.empty() ? 0.0 : 1.0) : static_cast<double>(heap.size());
  }
};

}  // namespace dlcnet::model
