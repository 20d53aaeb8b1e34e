// One ns-3 simulation of the namespace star (star_sim.hpp's StarNetwork): its nodes, links,
// queue discs and Linux-like TCP, one connection per (src, dst) pair opened before the origin,
// messages written into a pair's connection, and for each message its last byte acknowledged at
// the sender and read by the receiver. The open loop (star_sim.cpp) writes every message at its
// start; the closed loop (job_sim.cpp) writes a message when the ones it waits for have
// arrived. ns-3's simulator is a process-wide singleton: one session at a time. Times are
// seconds from the messages' origin (the connections open kSetupS before it).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include <ns3/ipv4-address.h>
#include <ns3/node-container.h>
#include <ns3/queue-disc.h>

#include "apps/dlc_ns3/pair_sender.hpp"
#include "apps/dlc_ns3/star_sim.hpp"

namespace dlcnet::ns3p {

class StarSession {
 public:
  struct Events {
    std::function<void(size_t)> acked;    // the message's last byte acknowledged at the sender
    std::function<void(size_t)> arrived;  // read by the receiver (unset: not tracked)
  };
  StarSession(const StarNetwork& net, Events events);
  ~StarSession();  // the simulation destroyed
  StarSession(const StarSession&) = delete;
  StarSession& operator=(const StarSession&) = delete;

  // Writes message `id` of `bytes` on (src, dst)'s connection at `at_s`, opening the connection
  // (at the simulation's start) on its first use. Call before run(), or from an event at or
  // before `at_s`.
  void write_at(double at_s, size_t id, uint32_t src, uint32_t dst, uint64_t bytes);
  // Calls `f` at `at_s` (not before now).
  void call_at(double at_s, std::function<void()> f);
  double now_s() const;
  // Appends the backlog of the tbf toward rank 0 to `out` at every change (if that port is
  // shaped).
  void sample_queue(std::vector<QueueSample>& out);
  // Runs until stop() or `until_s`.
  void run(double until_s);
  void stop();

 private:
  PairSender& pair(uint32_t src, uint32_t dst);
  void delivered(ns3::Ptr<const ns3::Packet> packet, const ns3::Address& from);

  Events events_;
  ns3::NodeContainer hosts_;
  std::vector<ns3::Ipv4Address> host_ip_;
  ns3::Ptr<ns3::QueueDisc> p0_;
  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<PairSender>> pairs_;
  // A connection by its sender's address and port, as the receiving sink sees them.
  std::map<std::pair<uint32_t, uint16_t>, PairSender*> by_source_;
};

}  // namespace dlcnet::ns3p
