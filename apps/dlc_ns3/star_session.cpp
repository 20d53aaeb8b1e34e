#include "apps/dlc_ns3/star_session.hpp"

#include <algorithm>
#include <string>

#include <ns3/boolean.h>
#include <ns3/config.h>
#include <ns3/data-rate.h>
#include <ns3/inet-socket-address.h>
#include <ns3/internet-stack-helper.h>
#include <ns3/ipv4-address-helper.h>
#include <ns3/ipv4-global-routing-helper.h>
#include <ns3/node-container.h>
#include <ns3/packet-sink-helper.h>
#include <ns3/packet-sink.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/queue-disc.h>
#include <ns3/queue-size.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-cubic.h>
#include <ns3/tcp-socket-factory.h>
#include <ns3/traffic-control-helper.h>
#include <ns3/uinteger.h>

#include "apps/dlc_ns3/fair_port.hpp"
#include "core/star_ports.hpp"

namespace dlcnet::ns3p {
namespace {

constexpr uint32_t kIpTcpHeaders = kStarIpTcpHeaders;
constexpr uint32_t kEthernet = kStarEthernetBytes;
constexpr uint32_t kPpp = 2;  // ns-3's point-to-point header
constexpr uint16_t kPort = 5001;
constexpr double kSetupS = 1.0;  // connections open before the messages' origin

// Linux-like TCP (docs/compare.md, "ns-3 as a predictor").
void configure_tcp(const RunSettings& run) {
  using ns3::Config::SetDefault;
  const ns3::TypeId cc =
      run.congestion_control == "cubic" ? ns3::TcpCubic::GetTypeId() : ns3::TcpNewReno::GetTypeId();
  SetDefault("ns3::TcpL4Protocol::SocketType", ns3::TypeIdValue(cc));
  SetDefault("ns3::TcpSocket::SegmentSize", ns3::UintegerValue(run.mtu - kIpTcpHeaders));
  SetDefault("ns3::TcpSocket::InitialCwnd", ns3::UintegerValue(run.initcwnd));
  // Autotuning up to the maxima, as large buffers from the start.
  SetDefault("ns3::TcpSocket::SndBufSize", ns3::UintegerValue(run.wmem_max));
  SetDefault("ns3::TcpSocket::RcvBufSize", ns3::UintegerValue(run.rmem_max));
  SetDefault("ns3::TcpSocket::DelAckCount", ns3::UintegerValue(2));
  // Linux acknowledges a pushed tail as soon as the application has read it (tcp_cleanup_rbuf),
  // not after its 40 ms delayed-ACK timer; ns-3 has no ACK on read, so its timer is short: at
  // 40 ms every window-limited round stalled 40 ms on its odd last segment (+11 %).
  SetDefault("ns3::TcpSocket::DelAckTimeout", ns3::TimeValue(ns3::MilliSeconds(1)));
  // ns-3's minimum RTO stays 1 s: with Linux's 200 ms a window queued behind the other
  // senders' times out spuriously, and ns-3 cannot undo a spurious RTO (issue 30).
  SetDefault("ns3::TcpSocketBase::Sack", ns3::BooleanValue(true));
  SetDefault("ns3::TcpSocketBase::Timestamp", ns3::BooleanValue(true));
}

// A root queue disc on every device before addresses are assigned (else ns-3 puts FqCoDel
// there): the tbf on the shaped ports, a FIFO too large to drop elsewhere (a veth's noqueue).
void install_queues(const StarNetwork& net, ns3::NetDeviceContainer& switch_ports,
                    ns3::NetDeviceContainer& host_ports, ns3::Ptr<ns3::QueueDisc>& p0) {
  const double ip_share = double(net.run.mtu) / (net.run.mtu + kEthernet);
  const ns3::DataRateValue rate(ns3::DataRate(uint64_t(net.run.tbf_rate_Bps * ip_share * 8)));
  const ns3::UintegerValue burst(uint32_t(net.run.tbf_burst_bytes * ip_share));
  const auto limit = uint32_t(net.run.tbf_limit_bytes * ip_share);
  ns3::TrafficControlHelper tbf;
  if (net.run.ports == Ports::fifo) {
    tbf.SetRootQueueDisc("ns3::TbfQueueDisc", "Rate", rate, "Burst", burst, "MaxSize",
                         ns3::QueueSizeValue(ns3::QueueSize(ns3::QueueSizeUnit::BYTES, limit)));
  } else {
    // Fair ports: the rate over one class per host or flow, each holding --limit (the htb's
    // classes and their bfifos), served a frame at a time.
    const uint16_t root = tbf.SetRootQueueDisc("ns3::TbfQueueDisc", "Rate", rate, "Burst", burst);
    const auto cls = tbf.AddQueueDiscClasses(root, 1, "ns3::QueueDiscClass");
    tbf.AddChildQueueDisc(root, cls[0], "dlcnet::FairPortQueueDisc", "ByFlow",
                          ns3::BooleanValue(net.run.ports == Ports::fair_flows), "ClassLimit",
                          ns3::UintegerValue(limit), "Quantum", ns3::UintegerValue(net.run.mtu));
  }
  ns3::TrafficControlHelper fifo;
  fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", ns3::StringValue("1000000p"));
  for (uint32_t i = 0; i < switch_ports.GetN(); ++i) {
    const bool shaped = i == 0 || net.run.tbf_on_all_ports;
    ns3::QueueDiscContainer q = (shaped ? tbf : fifo).Install(switch_ports.Get(i));
    if (i == 0) p0 = q.Get(0);
  }
  fifo.Install(host_ports);
}

// From now to `at_s` after the origin, or 0 if that has passed (a time rounded to ns).
ns3::Time delay_to(double at_s) {
  return std::max(ns3::Seconds(kSetupS + at_s) - ns3::Simulator::Now(), ns3::Time(0));
}

}  // namespace

StarSession::StarSession(const StarNetwork& net, Events events) : events_(std::move(events)) {
  ns3::RngSeedManager::SetSeed(1);
  ns3::RngSeedManager::SetRun(1);
  configure_tcp(net.run);
  ns3::NodeContainer sw;
  hosts_.Create(net.hosts);
  sw.Create(1);
  ns3::InternetStackHelper stack;
  stack.InstallAll();
  ns3::PointToPointHelper p2p;
  const double wire = double(net.run.mtu + kPpp) / (net.run.mtu - kIpTcpHeaders);
  p2p.SetDeviceAttribute("DataRate",
                         ns3::DataRateValue(ns3::DataRate(uint64_t(net.link_rate_Bps * wire * 8))));
  p2p.SetDeviceAttribute("Mtu", ns3::UintegerValue(net.run.mtu));
  p2p.SetChannelAttribute("Delay", ns3::TimeValue(ns3::Seconds(net.base_latency_s / 2)));
  p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue("8p"));
  ns3::NetDeviceContainer switch_ports, host_ports;
  std::vector<ns3::NetDeviceContainer> links;
  for (uint32_t i = 0; i < net.hosts; ++i) {
    links.push_back(p2p.Install(hosts_.Get(i), sw.Get(0)));
    host_ports.Add(links.back().Get(0));
    switch_ports.Add(links.back().Get(1));
  }
  install_queues(net, switch_ports, host_ports, p0_);
  ns3::Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
  for (ns3::NetDeviceContainer& link : links) {
    host_ip_.push_back(addresses.Assign(link).GetAddress(0));
    addresses.NewNetwork();
  }
  ns3::Ipv4GlobalRoutingHelper::PopulateRoutingTables();
  ns3::PacketSinkHelper sink("ns3::TcpSocketFactory",
                             ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), kPort));
  ns3::ApplicationContainer sinks = sink.Install(hosts_);
  sinks.Start(ns3::Seconds(0));
  if (!events_.arrived) return;
  for (uint32_t i = 0; i < sinks.GetN(); ++i) {
    sinks.Get(i)->TraceConnectWithoutContext("Rx",
                                             ns3::MakeCallback(&StarSession::delivered, this));
  }
}

StarSession::~StarSession() {
  ns3::Simulator::Destroy();
}

PairSender& StarSession::pair(uint32_t src, uint32_t dst) {
  std::unique_ptr<PairSender>& p = pairs_[{src, dst}];
  if (p) return *p;
  ns3::Ptr<ns3::Socket> s =
      ns3::Socket::CreateSocket(hosts_.Get(src), ns3::TcpSocketFactory::GetTypeId());
  s->Bind();
  p = std::make_unique<PairSender>(s, events_.acked, events_.arrived);
  ns3::Address local;
  s->GetSockName(local);
  by_source_[{host_ip_[src].Get(), ns3::InetSocketAddress::ConvertFrom(local).GetPort()}] = p.get();
  ns3::Simulator::Schedule(ns3::Seconds(0), &PairSender::connect, p.get(),
                           ns3::Address(ns3::InetSocketAddress(host_ip_[dst], kPort)));
  return *p;
}

void StarSession::delivered(ns3::Ptr<const ns3::Packet> packet, const ns3::Address& from) {
  const ns3::InetSocketAddress a = ns3::InetSocketAddress::ConvertFrom(from);
  const auto it = by_source_.find({a.GetIpv4().Get(), a.GetPort()});
  if (it != by_source_.end()) it->second->received(packet->GetSize());
}

void StarSession::write_at(double at_s, size_t id, uint32_t src, uint32_t dst, uint64_t bytes) {
  PairSender& p = pair(src, dst);
  ns3::Simulator::Schedule(delay_to(at_s), &PairSender::write, &p, id, bytes);
}

void StarSession::call_at(double at_s, std::function<void()> f) {
  ns3::Simulator::Schedule(delay_to(at_s), std::move(f));
}

double StarSession::now_s() const {
  return ns3::Simulator::Now().GetSeconds() - kSetupS;
}

void StarSession::sample_queue(std::vector<QueueSample>& out) {
  if (!p0_) return;
  p0_->TraceConnectWithoutContext(
      "BytesInQueue", ns3::Callback<void, uint32_t, uint32_t>([this, &out](uint32_t, uint32_t) {
        out.push_back({now_s(), double(p0_->GetNBytes()) + kEthernet * p0_->GetNPackets()});
      }));
}

void StarSession::run(double until_s) {
  ns3::Simulator::Stop(delay_to(until_s));
  ns3::Simulator::Run();
}

void StarSession::stop() {
  ns3::Simulator::Stop();
}

}  // namespace dlcnet::ns3p
