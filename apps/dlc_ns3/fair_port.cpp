#include "apps/dlc_ns3/fair_port.hpp"

#include <ns3/boolean.h>
#include <ns3/ipv4-queue-disc-item.h>
#include <ns3/tcp-header.h>
#include <ns3/uinteger.h>

namespace dlcnet::ns3p {

NS_OBJECT_ENSURE_REGISTERED(FairPortQueueDisc);

namespace {
constexpr uint8_t kTcp = 6;
}  // namespace

ns3::TypeId FairPortQueueDisc::GetTypeId() {
  static ns3::TypeId tid =
      ns3::TypeId("dlcnet::FairPortQueueDisc")
          .SetParent<ns3::QueueDisc>()
          .AddConstructor<FairPortQueueDisc>()
          .AddAttribute("ByFlow", "classes per TCP flow hash (else per source host)",
                        ns3::BooleanValue(false),
                        ns3::MakeBooleanAccessor(&FairPortQueueDisc::by_flow_),
                        ns3::MakeBooleanChecker())
          .AddAttribute("ClassLimit", "bytes each class holds", ns3::UintegerValue(262144),
                        ns3::MakeUintegerAccessor(&FairPortQueueDisc::class_limit_),
                        ns3::MakeUintegerChecker<uint32_t>(1))
          .AddAttribute("Quantum", "bytes a class sends per turn", ns3::UintegerValue(1500),
                        ns3::MakeUintegerAccessor(&FairPortQueueDisc::quantum_),
                        ns3::MakeUintegerChecker<uint32_t>(1));
  return tid;
}

FairPortQueueDisc::FairPortQueueDisc() : ns3::QueueDisc(ns3::QueueDiscSizePolicy::NO_LIMITS) {}

FairPortQueueDisc::Key FairPortQueueDisc::classify(const ns3::Ptr<ns3::QueueDiscItem>& item) const {
  const Key other{0, 0, UINT32_MAX};
  const ns3::Ptr<ns3::Ipv4QueueDiscItem> ip = ns3::DynamicCast<ns3::Ipv4QueueDiscItem>(item);
  if (!ip) return other;
  const ns3::Ipv4Header& h = ip->GetHeader();
  if (!by_flow_) return {h.GetSource().Get(), 0, 0};
  ns3::TcpHeader tcp;
  if (h.GetProtocol() != kTcp || item->GetPacket()->PeekHeader(tcp) == 0) return other;
  return {h.GetSource().Get(), h.GetDestination().Get(),
          uint32_t(tcp.GetSourcePort()) << 16 | tcp.GetDestinationPort()};
}

bool FairPortQueueDisc::DoEnqueue(ns3::Ptr<ns3::QueueDiscItem> item) {
  const Key id = classify(item);
  Class& c = classes_[id];
  if (c.bytes + item->GetSize() > class_limit_) {
    DropBeforeEnqueue(item, "class limit exceeded");
    return false;
  }
  c.bytes += item->GetSize();
  c.items.push_back(item);
  if (!c.active) {  // as Linux's DRR: a class joins at the back with one quantum
    c.active = true;
    c.deficit = quantum_;
    active_.push_back(id);
  }
  return true;
}

// Deficit round robin: the class at the head sends while its deficit covers its next packet,
// then goes to the back with one more quantum; an emptied class leaves the round.
ns3::Ptr<ns3::QueueDiscItem> FairPortQueueDisc::DoDequeue() {
  while (!active_.empty()) {
    Class& c = classes_[active_.front()];
    const ns3::Ptr<ns3::QueueDiscItem>& head = c.items.front();
    if (c.deficit < int64_t(head->GetSize())) {
      c.deficit += quantum_;
      active_.push_back(active_.front());
      active_.pop_front();
      continue;
    }
    ns3::Ptr<ns3::QueueDiscItem> item = head;
    c.items.pop_front();
    c.bytes -= item->GetSize();
    c.deficit -= item->GetSize();
    if (c.items.empty()) {
      c.active = false;
      active_.pop_front();
    }
    return item;
  }
  return nullptr;
}

bool FairPortQueueDisc::CheckConfig() {
  return GetNQueueDiscClasses() == 0 && GetNPacketFilters() == 0 && GetNInternalQueues() == 0;
}

}  // namespace dlcnet::ns3p
