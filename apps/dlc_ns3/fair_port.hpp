// The namespace star's fair ports in ns-3 (scripts/netns-star.sh --fair, --fair-flows): an htb
// at the port's rate whose classes, one per source host or one per TCP flow, each a byte FIFO
// of --limit, share the rate by deficit round robin in quanta of one frame. ns-3 has no DRR or
// htb; this queue disc is the classes and the round robin, the tbf above it the rate. One
// difference: the star hashes a flow's two ports into 256 classes, so two connections share a
// class there when their hashes meet (their ports are the kernels' choice, which no report
// records); here every connection has a class of its own.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <tuple>

#include <ns3/queue-disc.h>

namespace dlcnet::ns3p {

class FairPortQueueDisc : public ns3::QueueDisc {
 public:
  static ns3::TypeId GetTypeId();
  FairPortQueueDisc();

 private:
  // A class: (IPv4 source, 0, 0) by host; (source, destination, ports) by flow; what is not
  // IPv4 (or, by flow, not TCP) one class of its own, as the htb's default class.
  using Key = std::tuple<uint32_t, uint32_t, uint32_t>;
  struct Class {
    std::deque<ns3::Ptr<ns3::QueueDiscItem>> items;
    uint64_t bytes = 0;
    int64_t deficit = 0;
    bool active = false;
  };

  bool DoEnqueue(ns3::Ptr<ns3::QueueDiscItem> item) override;
  ns3::Ptr<ns3::QueueDiscItem> DoDequeue() override;
  bool CheckConfig() override;
  void InitializeParams() override {}
  Key classify(const ns3::Ptr<ns3::QueueDiscItem>& item) const;

  bool by_flow_ = false;
  uint32_t class_limit_ = 0;  // bytes each class holds (--limit)
  uint32_t quantum_ = 0;      // bytes a class may send per turn (one frame)
  std::map<Key, Class> classes_;
  std::deque<Key> active_;  // classes with packets, in round-robin order
};

}  // namespace dlcnet::ns3p
