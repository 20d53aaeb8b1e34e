#include "apps/dlc_ns3/star_sim.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include <ns3/boolean.h>
#include <ns3/config.h>
#include <ns3/data-rate.h>
#include <ns3/inet-socket-address.h>
#include <ns3/internet-stack-helper.h>
#include <ns3/ipv4-address-helper.h>
#include <ns3/ipv4-global-routing-helper.h>
#include <ns3/node-container.h>
#include <ns3/packet-sink-helper.h>
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
#include "apps/dlc_ns3/pair_sender.hpp"
#include "core/error.hpp"

namespace dlcnet::ns3p {
namespace {

constexpr uint32_t kIpTcpHeaders = 52;  // IPv4 20 + TCP 20 + timestamps 12, as Linux sends
constexpr uint32_t kEthernet = 14;      // what Linux's tbf counts on a veth beyond the IP packet
constexpr uint32_t kPpp = 2;            // ns-3's point-to-point header
constexpr uint16_t kPort = 5001;
constexpr double kSetupS = 1.0;    // connections open before the flows' origin
constexpr double kDrainS = 600.0;  // the most a flow may take after the last start

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

}  // namespace

StarResult simulate_star(const StarNetwork& net, std::span<const HpccFlow> flows) {
  ns3::RngSeedManager::SetSeed(1);
  ns3::RngSeedManager::SetRun(1);
  configure_tcp(net.run);
  ns3::NodeContainer hosts, sw;
  hosts.Create(net.hosts);
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
    links.push_back(p2p.Install(hosts.Get(i), sw.Get(0)));
    host_ports.Add(links.back().Get(0));
    switch_ports.Add(links.back().Get(1));
  }
  ns3::Ptr<ns3::QueueDisc> p0;
  install_queues(net, switch_ports, host_ports, p0);
  ns3::Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
  std::vector<ns3::Ipv4Address> host_ip;
  for (ns3::NetDeviceContainer& link : links) {
    host_ip.push_back(addresses.Assign(link).GetAddress(0));
    addresses.NewNetwork();
  }
  ns3::Ipv4GlobalRoutingHelper::PopulateRoutingTables();
  ns3::PacketSinkHelper sink("ns3::TcpSocketFactory",
                             ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), kPort));
  sink.Install(hosts).Start(ns3::Seconds(0));

  StarResult out;
  out.finish_s.assign(flows.size(), -1);
  size_t left = flows.size();
  auto done = [&](size_t flow) {
    out.finish_s[flow] = ns3::Simulator::Now().GetSeconds() - kSetupS;
    if (--left == 0) ns3::Simulator::Stop();
  };
  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<PairSender>> pairs;
  double last_start = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    const HpccFlow& f = flows[i];
    std::unique_ptr<PairSender>& pair = pairs[{f.src, f.dst}];
    if (!pair) {
      ns3::Ptr<ns3::Socket> s =
          ns3::Socket::CreateSocket(hosts.Get(f.src), ns3::TcpSocketFactory::GetTypeId());
      s->Bind();
      pair = std::make_unique<PairSender>(s, done);
      ns3::Simulator::Schedule(ns3::Seconds(0), &PairSender::connect, pair.get(),
                               ns3::Address(ns3::InetSocketAddress(host_ip[f.dst], kPort)));
    }
    ns3::Simulator::Schedule(ns3::Seconds(kSetupS + f.start_s), &PairSender::write, pair.get(), i,
                             f.size);
    last_start = std::max(last_start, f.start_s);
  }
  if (p0) {
    p0->TraceConnectWithoutContext(
        "BytesInQueue", ns3::Callback<void, uint32_t, uint32_t>([&](uint32_t, uint32_t) {
          const double t = ns3::Simulator::Now().GetSeconds() - kSetupS;
          out.queue.push_back({t, double(p0->GetNBytes()) + kEthernet * p0->GetNPackets()});
        }));
  }
  ns3::Simulator::Stop(ns3::Seconds(kSetupS + last_start + kDrainS));
  if (!flows.empty()) ns3::Simulator::Run();
  ns3::Simulator::Destroy();
  if (left > 0) {
    throw Error("ns-3: " + std::to_string(left) + " of " + std::to_string(flows.size()) +
                " flows not complete " + std::to_string(kDrainS) + " s after the last start");
  }
  return out;
}

}  // namespace dlcnet::ns3p
