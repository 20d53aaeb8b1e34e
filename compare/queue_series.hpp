// A queue's length over time, as a measurement or a simulator gives it: the sampled qdisc of a
// fan-in (compare/queue_fanin.hpp), SimAI's queue monitor (compare/queue_simai.hpp), HPCC's
// per-port histogram (compare/queue_hpcc.hpp), the reference model's fluid queue
// (compare/queue_model.hpp). Times in seconds on the source's own axis (the comparison shifts
// a prediction onto the measurement's, compare/queue_compare.hpp), lengths in bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlcnet::compare {

// How the length goes between two points.
enum class QueueShape {
  step,    // it holds a point's value until the next point (samples, SimAI's rows on change)
  linear,  // it moves in a straight line from one point to the next (the model's corners)
};

struct QueueSample {
  double t_s = 0;
  double bytes = 0;
  // The largest length from this point until the next: `bytes` for a sampled or linear series;
  // for HPCC's histogram (each point an interval's mean) the interval's top bin.
  double max_bytes = 0;
};

// Which queue of which switch a port-resolved source's series is; -1: not port-resolved (a
// qdisc, the model's one port) or the whole port (every queue of it).
struct QueuePort {
  int64_t sw = -1, port = -1, queue = -1;
  bool resolved() const noexcept { return sw >= 0; }
  std::string name() const;  // "SW:PORT" or "SW:PORT:Q"; "" when not resolved
};

struct QueueSeries {
  std::string file, format;  // format: "fanin", "simai", "hpcc", "model"
  QueuePort port;
  QueueShape shape = QueueShape::step;
  std::vector<QueueSample> points;  // in time order
};

// The length at t: before the first point 0 (a source says nothing while its queue is empty);
// after the last, the last point's value.
double queue_at(const QueueSeries& s, double t_s);
// The largest length in [t0, t1] (t0 <= t1): the value at t0, every point in between (its
// max_bytes), and for a linear series the value at t1.
double queue_peak(const QueueSeries& s, double t0_s, double t1_s);
// The largest max_bytes of the whole series and its time (0, 0 when empty).
QueueSample queue_max(const QueueSeries& s);
// Every point moved by dt (the prediction's zero onto the measurement's axis).
void shift(QueueSeries& s, double dt_s);

}  // namespace dlcnet::compare
