// Set-up half of VerbsTransport: device, memory registration and connect().
#include <arpa/inet.h>

#include <algorithm>
#include <random>

#include "core/bootstrap.hpp"
#include "core/error.hpp"
#include "verbs/cm_connect.hpp"
#include "verbs/mtu.hpp"
#include "verbs/qp_options.hpp"
#include "verbs/verbs_transport.hpp"
#include "verbs/verbs_transport_impl.hpp"

namespace dlcnet::verbs {
namespace {

// librdmacm opens every device itself and rdma_create_qp() insists that the PD belong to the
// id's context, so the rdma_cm path must allocate everything on librdmacm's contexts.
std::vector<ibv_context*> rdma_cm_contexts() {
  int n = 0;
  ibv_context** list = rdma_get_devices(&n);
  if (list == nullptr) return {};
  std::vector<ibv_context*> contexts(list, list + std::max(n, 0));
  rdma_free_devices(list);  // frees the array only; the contexts stay with librdmacm
  return contexts;
}

uint8_t clamp_u8(int v) {
  return static_cast<uint8_t>(std::clamp(v, 0, 255));
}

}  // namespace

VerbsTransport::VerbsTransport(const TransportOptions& opts) : opts_(opts) {
  if (opts.send_depth == 0 || opts.recv_depth == 0) {
    throw Error("verbs: send_depth and recv_depth must be at least 1");
  }
  if (opts.rdma_cm) {
    ctx_ = select_among(rdma_cm_contexts(), opts);
  } else {
    own_ctx_ = open_selected_device(opts);
    ctx_ = own_ctx_.get();
  }
  dev_ = device_name_of(ctx_);
  if (int rc = ibv_query_device(ctx_, &dev_attr_); rc != 0) {
    throw_verbs_error(dev_, "ibv_query_device", returned_errno(rc));
  }
  port_ = choose_port_and_gid(ctx_, opts);
  max_msg_ = port_.attr.max_msg_sz;
  check_qp_options(opts, dev_, port_.port, port_.attr);
  const auto max_wr = static_cast<uint32_t>(std::max(dev_attr_.max_qp_wr, 0));
  if (opts.send_depth > max_wr || opts.recv_depth > max_wr) {
    throw Error(dev_ + ": send_depth " + std::to_string(opts.send_depth) + " / recv_depth " +
                std::to_string(opts.recv_depth) + " exceed the device's max_qp_wr " +
                std::to_string(max_wr) + ": lower -t (the send depth) to at most " +
                std::to_string(max_wr / 2));
  }
  if (opts.rdma_cm && !gid_ipv4_be(port_.gid)) {
    throw Error(dev_ + " port " + std::to_string(port_.port) + ": the rdma-cm path needs an " +
                "IPv4 address, but GID index " + std::to_string(port_.gid_index) + " is " +
                gid_to_string(port_.gid));
  }
  pd_ = alloc_pd(ctx_);
  make_async_fd_nonblocking(ctx_);
  // Datapath failures format into this without allocating.
  last_error_.reserve(512);
  fault_.reserve(512);
}

RegionId VerbsTransport::register_memory(void* addr, size_t length) {
  if (connected_) {
    throw Error(dev_ + ": register_memory() after connect(): register every region first, so " +
                "its remote key reaches the peers");
  }
  if (addr == nullptr || length == 0) throw Error(dev_ + ": register_memory() of an empty range");
  const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
  mrs_.push_back(reg_mr(pd_.get(), addr, length, access));
  const ibv_mr* mr = mrs_.back().get();
  regions_.push_back({reinterpret_cast<uint64_t>(addr), length, mr->lkey});
  return static_cast<RegionId>(regions_.size() - 1);
}

void VerbsTransport::validate_peers(const Bootstrap& boot, std::span<const int> peers) const {
  std::vector<bool> seen(static_cast<size_t>(boot.size()));
  for (int r : peers) {
    if (r < 0 || r >= boot.size()) {
      throw Error("connect(): peer " + std::to_string(r) + " is not a rank (there are " +
                  std::to_string(boot.size()) + ")");
    }
    if (r == boot.rank()) throw Error("connect(): rank " + std::to_string(r) + " lists itself");
    if (seen[r]) throw Error("connect(): peer " + std::to_string(r) + " listed twice");
    seen[r] = true;
  }
  if (peers.size() >= kMaxPeers) {
    throw Error("connect(): " + std::to_string(peers.size()) + " peers, at most " +
                std::to_string(kMaxPeers - 1) + " supported");
  }
}

// One CQ for sends and receives, sized for everything that can be outstanding: rxe drops send
// completions silently on a full CQ and puts the QP in error on a full receive side. Error
// flushes complete unsignaled requests too, so send_depth (not the signaled share) counts.
void VerbsTransport::create_cq(size_t npeers) {
  const uint64_t need = (uint64_t{opts_.send_depth} + opts_.recv_depth) * npeers;
  if (need > static_cast<uint64_t>(std::max(dev_attr_.max_cqe, 0))) {
    throw Error(dev_ + ": send_depth " + std::to_string(opts_.send_depth) + " + recv_depth " +
                std::to_string(opts_.recv_depth) + " for " + std::to_string(npeers) +
                " peers needs " + std::to_string(need) + " CQ entries; the device allows " +
                std::to_string(dev_attr_.max_cqe) +
                ": lower -t (the send depth; the receive depth " + "follows it) to about " +
                std::to_string(static_cast<uint64_t>(std::max(dev_attr_.max_cqe, 0)) / npeers / 2) +
                " or less, or use fewer peers per rank");
  }
  cq_entries_ = static_cast<int>(need);
  cq_ = verbs::create_cq(ctx_, cq_entries_);
}

void VerbsTransport::init_peer(PeerConn& p, int rank, size_t slot) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  p.rank = rank;
  p.psn = rng() & 0xFFFFFF;
  p.sq = SqCredits(opts_.send_depth);
  p.rq = RqCredits(opts_.recv_depth);
  p.id_base = uint64_t{slot} << kSeqBits;
  p.send_slots.resize(slot_table_size(opts_.send_depth));
  p.recv_slots.resize(slot_table_size(opts_.recv_depth));
  p.send_mask = p.send_slots.size() - 1;
  p.recv_mask = p.recv_slots.size() - 1;
}

void VerbsTransport::connect(Bootstrap& boot, std::span<const int> peers) {
  // Also after a failed attempt: its QPs still hold the CQ a second attempt would replace.
  if (connect_called_) throw Error(dev_ + ": connect() called twice");
  connect_called_ = true;
  validate_peers(boot, peers);
  slot_of_rank_.assign(static_cast<size_t>(boot.size()), -1);
  if (!peers.empty()) create_cq(peers.size());
  peers_ = std::vector<PeerConn>(peers.size());
  for (size_t i = 0; i < peers.size(); ++i) {
    init_peer(peers_[i], peers[i], i);
    slot_of_rank_[peers[i]] = static_cast<int32_t>(i);
  }
  inline_granted_ = opts_.inline_size;
  if (opts_.rdma_cm) {
    cm_channel_ = create_nonblocking_event_channel(dev_.c_str());
    const bool has_higher =
        std::any_of(peers.begin(), peers.end(), [&](int r) { return r > boot.rank(); });
    if (has_higher) {
      CmSetup s;
      s.device = dev_.c_str();
      s.local = local_ipv4();
      cm_listener_ = cm_listen(cm_channel_.get(), s);
    }
  } else {
    for (PeerConn& p : peers_) {
      uint32_t granted = 0;
      const ibv_qp_init_attr attr =
          rc_qp_init_attr(cq_.get(), opts_.send_depth, opts_.recv_depth, opts_.inline_size);
      p.qp = create_rc_qp(pd_.get(), attr, granted);
      p.raw_qp = p.qp.get();
      inline_granted_ = std::min(inline_granted_, granted);
      qp_to_init(p.raw_qp, port_.port);
    }
  }

  const std::vector<Endpoint> remote = exchange_endpoints(boot);
  if (opts_.rdma_cm) {
    connect_cm(remote, boot.rank());
  } else {
    connect_oob(remote);
  }

  for (PeerConn& p : peers_) {
    p.remote = remote[slot_of_rank_[p.rank]].regions;
    p.send_wr.sg_list = &p.send_sge;
    p.send_wr.num_sge = 1;
    p.recv_wr.sg_list = &p.recv_sge;
    p.recv_wr.num_sge = 1;
  }
  if (!peers_.empty()) {
    qp_settings_ = query_qp_settings(peers_.front().raw_qp);
    check_qp_took(opts_, dev_, qp_settings_);
  }
  // Every QP must be ready to receive before anyone sends: a packet that reaches a QP still
  // in INIT is dropped and only recovered by the 67 ms retransmission timer.
  boot.barrier();
  connected_ = true;
}

// Every rank sends a blob to every other rank (peers or not), so an asymmetric peer list
// fails on both sides instead of one side waiting for ever.
std::vector<Endpoint> VerbsTransport::exchange_endpoints(Bootstrap& boot) {
  const ConnectMethod method = opts_.rdma_cm ? ConnectMethod::rdma_cm : ConnectMethod::oob_tcp;
  std::vector<Bytes> out(static_cast<size_t>(boot.size()));
  for (int r = 0; r < boot.size(); ++r) {
    if (r == boot.rank()) continue;
    Endpoint ep;
    ep.method = method;
    const int32_t slot = slot_of_rank_[r];
    ep.is_peer = slot >= 0;
    if (ep.is_peer) {
      const PeerConn& p = peers_[slot];
      ep.qpn = p.raw_qp != nullptr ? p.raw_qp->qp_num : 0;
      ep.psn = p.psn;
      ep.gid = port_.gid;
      ep.lid = port_.attr.lid;
      ep.mtu = mtu_to_bytes(offered_mtu(opts_, port_.attr));
      ep.max_dest_rd_atomic = clamp_u8(dev_attr_.max_qp_rd_atom);
      ep.cm_port = cm_listener_ ? cm_local_port(cm_listener_.get()) : 0;
      for (const LocalRegion& reg : regions_) {
        ep.regions.push_back({reg.addr, reg.length, mrs_[&reg - regions_.data()]->rkey});
      }
    }
    out[r] = encode_endpoint(ep);
  }
  const std::vector<Bytes> in = boot.alltoall(out);

  std::vector<Endpoint> remote(peers_.size());
  const std::string me = "rank " + std::to_string(boot.rank());
  for (int r = 0; r < boot.size(); ++r) {
    if (r == boot.rank()) continue;
    Endpoint ep = decode_endpoint(in[r], r);
    const std::string them = "rank " + std::to_string(r);
    const int32_t slot = slot_of_rank_[r];
    if (ep.is_peer != (slot >= 0)) {
      throw Error("connect(): peer lists are not symmetric: " + (slot >= 0 ? me : them) +
                  " lists " + (slot >= 0 ? them : me) + " but " + (slot >= 0 ? them : me) +
                  " does not list " + (slot >= 0 ? me : them));
    }
    if (slot < 0) continue;
    if (ep.method != method) {
      throw ProtocolError("connect(): " + them + " connects with " + to_string(ep.method) + ", " +
                          me + " with " + to_string(method) + ": give every rank the same flags");
    }
    if (ep.regions.size() != regions_.size()) {
      throw ProtocolError("connect(): " + them + " registered " +
                          std::to_string(ep.regions.size()) + " regions, " + me + " " +
                          std::to_string(regions_.size()) +
                          ": every rank registers the same regions in the same order");
    }
    remote[slot] = std::move(ep);
  }
  return remote;
}

void VerbsTransport::connect_oob(const std::vector<Endpoint>& remote) {
  for (size_t i = 0; i < peers_.size(); ++i) {
    PeerConn& p = peers_[i];
    const Endpoint& ep = remote[i];
    RtrParams rtr;
    rtr.port = port_.port;
    rtr.sgid_index = port_.gid_index;
    rtr.path_mtu = path_mtu(offered_mtu(opts_, port_.attr), *mtu_from_bytes(ep.mtu));
    rtr.dest_qpn = ep.qpn;
    rtr.rq_psn = ep.psn;
    rtr.dgid = ep.gid;
    rtr.dlid = ep.lid;
    rtr.max_dest_rd_atomic = clamp_u8(dev_attr_.max_qp_rd_atom);
    rtr.traffic_class = clamp_u8(opts_.traffic_class);
    rtr.sl = clamp_u8(opts_.service_level);
    qp_to_rtr(p.raw_qp, rtr);
    // Issue no more reads at once than the peer serves, nor than this device can track.
    qp_to_rts(p.raw_qp, p.psn,
              std::min(clamp_u8(dev_attr_.max_qp_init_rd_atom), ep.max_dest_rd_atomic));
  }
}

sockaddr_in VerbsTransport::local_ipv4() const {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = *gid_ipv4_be(port_.gid);  // checked in the constructor
  return a;
}

void VerbsTransport::create_cm_qp(rdma_cm_id* id) {
  const ibv_qp_init_attr attr =
      rc_qp_init_attr(cq_.get(), opts_.send_depth, opts_.recv_depth, opts_.inline_size);
  const uint32_t granted =
      create_negotiating_inline(attr, dev_.c_str(), "rdma_create_qp", [&](ibv_qp_init_attr& a) {
        errno = 0;
        return rdma_create_qp(id, pd_.get(), &a) == 0 ? 0 : last_errno();
      });
  inline_granted_ = std::min(inline_granted_, granted);
}

void VerbsTransport::connect_cm(const std::vector<Endpoint>& remote, int my_rank) {
  std::vector<CmTarget> targets(peers_.size());
  for (size_t i = 0; i < peers_.size(); ++i) {
    CmTarget& t = targets[i];
    t.rank = peers_[i].rank;
    t.active = my_rank > t.rank;  // the lower rank listens
    if (!t.active) continue;
    const auto ip = gid_ipv4_be(remote[i].gid);
    if (!ip || remote[i].cm_port == 0) {
      throw ProtocolError("connect(): rank " + std::to_string(t.rank) + " sent no rdma_cm " +
                          "address (GID " + gid_to_string(remote[i].gid) + ", port " +
                          std::to_string(remote[i].cm_port) + ")");
    }
    t.remote.sin_family = AF_INET;
    t.remote.sin_addr.s_addr = *ip;
    t.remote.sin_port = htons(remote[i].cm_port);
  }
  CmSetup s;
  s.device = dev_.c_str();
  s.ctx = ctx_;
  s.port = port_.port;
  s.local = local_ipv4();
  s.my_rank = my_rank;
  s.timeout_ms = opts_.connect_timeout_ms;
  s.responder_resources = clamp_u8(dev_attr_.max_qp_rd_atom);
  s.initiator_depth = clamp_u8(dev_attr_.max_qp_init_rd_atom);
  s.create_qp = [this](rdma_cm_id* id) { create_cm_qp(id); };
  cm_connect_all(cm_channel_.get(), cm_listener_.get(), targets, s);
  for (size_t i = 0; i < peers_.size(); ++i) {
    peers_[i].cm_id = std::move(targets[i].id);
    peers_[i].raw_qp = peers_[i].cm_id->qp;
    peers_[i].cm_id->context = nullptr;  // pointed at `targets`, about to go away
  }
}

}  // namespace dlcnet::verbs

namespace dlcnet {

std::unique_ptr<Transport> make_verbs_transport(const TransportOptions& opts) {
  return std::make_unique<verbs::VerbsTransport>(opts);
}

}  // namespace dlcnet
