// The model's input and output for one message, and the whole prediction.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model/fluid_queue.hpp"

namespace dlcnet::model {

inline constexpr uint32_t kNoMessage = std::numeric_limits<uint32_t>::max();

struct Message {
  uint64_t id = 0;  // the caller's label (a flow line, a dlcnet message id); not interpreted
  uint32_t src = 0, dst = 0;
  uint64_t bytes = 0;  // payload
  double start_s = 0;  // when the message is posted, if `after` is empty
  // Positions in the input of the messages this one waits for: it is posted `think_s` after
  // the last of them has arrived at its receiver.
  std::vector<uint32_t> after;
  double think_s = 0;
  // Parallel to `after`, or empty for none: a time of its own after each arrival (compute along
  // the way from that message, as a Chakra job's compute nodes): the message is posted `think_s`
  // after the latest of (arrival + its delay), and not before `not_before_s` + `think_s` (compute
  // since the start along a path without a message).
  std::vector<double> after_delay_s;
  double not_before_s = -std::numeric_limits<double>::infinity();
  // The position of a message this one is not posted before (kNoMessage: none): dlc-replay posts
  // a rank's sends to one peer in the order of its timeline, so a message whose dependencies are
  // met waits for the post of the one before it on that channel.
  uint32_t follows = kNoMessage;
};

struct MessageTimes {
  double start_s = 0;   // posted
  double wire_s = 0;    // its first byte enters the wire: start + per-message overhead
  double sent_s = 0;    // its last byte has left the sender (end of the fluid transfer)
  double finish_s = 0;  // its last byte has arrived: sent + queueing at the port + latency
};

struct LinkUse {
  std::string name;
  double rate_Bps = 0;
  double bytes = 0;        // wire bytes carried
  double utilisation = 0;  // bytes / (rate x the prediction's span)
};

struct Prediction {
  std::vector<MessageTimes> messages;  // in the input's order
  std::vector<LinkUse> links;          // up links, down links, then the port if any
  std::vector<QueuePoint> queue;       // the port's queue length at its corners (if any)
  double queue_max_bytes = 0;
  double begin_s = 0, end_s = 0;  // the first post, the last arrival
  uint64_t events = 0;            // instants the model stopped at
  uint64_t solves = 0;            // max-min solutions computed
  uint64_t solved_pairs = 0;      // active (source, destination) pairs, summed over solves
};

}  // namespace dlcnet::model
