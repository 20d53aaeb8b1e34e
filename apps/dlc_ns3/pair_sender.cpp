#include "apps/dlc_ns3/pair_sender.hpp"

#include <algorithm>
#include <utility>

#include <ns3/callback.h>
#include <ns3/packet.h>

namespace dlcnet::ns3p {
namespace {

// The most bytes one Send() hands over: the socket splits them into segments anyway.
constexpr uint64_t kChunk = 1 << 16;

}  // namespace

PairSender::PairSender(ns3::Ptr<ns3::Socket> socket, std::function<void(size_t)> done,
                       std::function<void(size_t)> arrived)
    : socket_(std::move(socket)), done_(std::move(done)), arrived_(std::move(arrived)) {
  socket_->SetSendCallback(ns3::MakeCallback(&PairSender::room, this));
  socket_->TraceConnectWithoutContext("HighestRxAck", ns3::MakeCallback(&PairSender::acked, this));
}

void PairSender::connect(ns3::Address to) {
  socket_->Connect(to);
}

void PairSender::write(size_t flow, uint64_t bytes) {
  queued_ += bytes;
  flows_.push_back({flow, queued_});
  if (arrived_) arriving_.push_back({flow, queued_});
  fill();
  complete();  // an empty flow behind acknowledged data
}

void PairSender::received(uint64_t bytes) {
  read_ += bytes;
  while (!arriving_.empty() && read_ >= arriving_.front().end) {
    const size_t flow = arriving_.front().flow;
    arriving_.pop_front();
    arrived_(flow);
  }
}

void PairSender::fill() {
  while (written_ < queued_) {
    const uint64_t room = socket_->GetTxAvailable();
    const uint64_t n = std::min({queued_ - written_, room, kChunk});
    if (n == 0) return;
    if (socket_->Send(ns3::Create<ns3::Packet>(static_cast<uint32_t>(n))) < 0) return;
    written_ += n;
  }
}

void PairSender::room(ns3::Ptr<ns3::Socket>, uint32_t) {
  fill();
}

void PairSender::acked(ns3::SequenceNumber32 before, ns3::SequenceNumber32 now) {
  const int32_t step = now - before;
  if (step <= 0) return;
  acked_ += static_cast<uint64_t>(step);
  complete();
}

void PairSender::complete() {
  // Data starts after the SYN's sequence number.
  while (!flows_.empty() && acked_ >= flows_.front().end + 1) {
    const size_t flow = flows_.front().flow;
    flows_.pop_front();
    done_(flow);
  }
}

}  // namespace dlcnet::ns3p
