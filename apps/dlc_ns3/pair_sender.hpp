// One (source, destination) pair's TCP connection in the simulated star: each flow's bytes are
// written into the one socket at the flow's start, back to back behind the flows before it (as
// dlcnet's messages on one UCX endpoint), and a flow is complete when its last byte is
// acknowledged at the sender (HPCC's fct); it has arrived when the receiver has read its last
// byte (received(), from the receiver's sink).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>

#include <ns3/address.h>
#include <ns3/ptr.h>
#include <ns3/sequence-number.h>
#include <ns3/socket.h>

namespace dlcnet::ns3p {

class PairSender {
 public:
  // `done(flow)` is called when flow `flow`'s last byte is acknowledged, `arrived(flow)` (if
  // set) when the receiver has read it.
  PairSender(ns3::Ptr<ns3::Socket> socket, std::function<void(size_t)> done,
             std::function<void(size_t)> arrived = {});
  PairSender(const PairSender&) = delete;
  PairSender& operator=(const PairSender&) = delete;

  // Opens the connection (call from within the simulation: the nodes are initialised then).
  void connect(ns3::Address to);
  // Writes flow `flow` of `bytes` behind what was written before (call at its start).
  void write(size_t flow, uint64_t bytes);
  // The receiver has read `bytes` more of this connection's data (a flow of no bytes is never
  // reported arrived: the closed loop does not write one).
  void received(uint64_t bytes);

 private:
  void fill();  // as much of what is waiting as the send buffer takes
  void room(ns3::Ptr<ns3::Socket> socket, uint32_t available);  // the socket's send callback
  void acked(ns3::SequenceNumber32 before, ns3::SequenceNumber32 now);
  void complete();  // done_() for every flow acknowledged to its last byte

  struct Pending {
    size_t flow;
    uint64_t end;  // the byte after the flow's last, counted on the connection
  };
  ns3::Ptr<ns3::Socket> socket_;
  std::function<void(size_t)> done_, arrived_;
  std::deque<Pending> flows_;
  std::deque<Pending> arriving_;  // flows not yet read to their last byte (with arrived_)
  uint64_t written_ = 0;          // bytes handed to the socket
  uint64_t queued_ = 0;           // bytes the flows so far hold
  uint64_t acked_ = 0;            // sequence numbers acknowledged, the SYN's one included
  uint64_t read_ = 0;             // bytes the receiver has read
};

}  // namespace dlcnet::ns3p
