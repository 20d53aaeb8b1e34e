// A job's messages in the simulated namespace star, closed loop (dlc-ns3-predict --job): each
// message (model/message.hpp, from replay/job_messages.hpp) is written into its pair's
// connection `think_s` after the last of the messages it waits for (`after`) has been read by
// its receiver in the simulation; a message that waits for none at its `start_s`. The star is
// star_sim.hpp's, built the same way (star_session.hpp). No ns-3 type crosses this interface.
#pragma once

#include <span>
#include <vector>

#include "apps/dlc_ns3/star_sim.hpp"
#include "model/message.hpp"

namespace dlcnet::ns3p {

struct JobTimes {
  // Per message, seconds from the origin: posted (written into its connection), its last byte
  // read by the receiver, and acknowledged at the sender. A message of no bytes arrives one
  // base latency after its post and has no acknowledgement of its own (acked_s = arrival_s).
  std::vector<double> start_s, arrival_s, acked_s;
  std::vector<QueueSample> queue;  // the tbf toward rank 0, at every change
};

// Runs the messages (src != dst, both < net.hosts; `after` naming earlier or later positions)
// to completion; throws Error when one does not arrive within 600 simulated seconds after the
// last post, or when some wait for each other (a cycle: never posted).
JobTimes simulate_job(const StarNetwork& net, std::span<const model::Message> messages);

}  // namespace dlcnet::ns3p
