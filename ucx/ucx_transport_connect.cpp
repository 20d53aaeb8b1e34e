// UcxTransport::connect(): exchange of worker addresses, settings and remote keys, endpoint
// creation and a tagged handshake proving every endpoint carries traffic both ways.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/bootstrap.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "ucx/ucx_error.hpp"
#include "ucx/ucx_host_id.hpp"
#include "ucx/ucx_peer_blob.hpp"
#include "ucx/ucx_request_wait.hpp"
#include "ucx/ucx_transport_impl.hpp"

namespace dlcnet::ucx {
namespace {

// Transports of UCX 1.13 that can detect a dead peer; the shared-memory ones (posix, sysv,
// cma, knem, xpmem) and self cannot, and UCX refuses error mode "peer" over them.
bool allows_peer_failure_detection(const std::string& tls) {
  return tls_allows(tls, {"all", "tcp", "ib", "rc", "rc_v", "rc_x", "ud", "ud_v", "ud_x", "dc",
                          "dc_x", "rc_verbs", "rc_mlx5", "ud_verbs", "ud_mlx5", "dc_mlx5"});
}

// The RDMA transports among them: over these UCX 1.13 connects two ranks of one host only in
// mode "peer" (in mode "none", rc_verbs with tcp:aux finds no transport that reaches the peer).
bool allows_rdma(const std::string& tls) {
  return tls_allows(tls, {"ib", "rc", "rc_v", "rc_x", "ud", "ud_v", "ud_x", "dc", "dc_x",
                          "rc_verbs", "rc_mlx5", "ud_verbs", "ud_mlx5", "dc_mlx5"});
}

std::string settings_text(const Selection& s) {
  return "UCX_TLS=" + s.tls + ", UCX_NET_DEVICES=" + s.net_devices;
}

}  // namespace

void UcxTransport::check_peer_list(std::span<const int> peers) const {
  std::vector<bool> seen(peers_.size(), false);
  for (int r : peers) {
    if (r < 0 || r >= static_cast<int>(peers_.size()) || r == rank_)
      throw Error("ucx: connect(): peer rank " + std::to_string(r) + " is not another rank of " +
                  std::to_string(peers_.size()));
    if (seen[r]) throw Error("ucx: connect(): peer rank " + std::to_string(r) + " listed twice");
    seen[r] = true;
  }
}

Endpoint UcxTransport::create_endpoint(Peer& p, const Bytes& address, bool same_host) {
  ucp_ep_params_t ep{};
  ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                  UCP_EP_PARAM_FIELD_ERR_HANDLER;
  ep.address = reinterpret_cast<const ucp_address_t*>(address.data());
  ep.err_handler.cb = &UcxTransport::on_peer_error;
  ep.err_handler.arg = &p;
  // A peer on this host: mode "none", since UCX 1.13 will not use shared memory under mode
  // "peer" and would pick tcp over lo (8 us against 0.6 us at 64 B), and over tcp "peer" moves
  // a rendezvous's data as active messages copied at the receiver, not by its zero-copy put
  // (a 1 MiB message over lo took 1.7x as long as Open MPI's, which uses "none"). A dead peer
  // on this host is found by the job's bootstrap, which every tool watches, not by UCX. Over
  // RDMA transports without shared memory the mode stays "peer" (allows_rdma above).
  p.same_host = same_host;
  const bool none_here =
      same_host && (allows_shared_memory(selection_.tls) || !allows_rdma(selection_.tls));
  p.err_mode = allows_peer_failure_detection(selection_.tls) && !none_here
                   ? UCP_ERR_HANDLING_MODE_PEER
                   : UCP_ERR_HANDLING_MODE_NONE;
  ep.err_mode = p.err_mode;
  ucp_ep_h h = nullptr;
  ucs_status_t s = ucp_ep_create(worker_.get(), &ep, &h);
  if (s == UCS_ERR_UNREACHABLE && p.err_mode == UCP_ERR_HANDLING_MODE_PEER) {
    // Only transports without failure detection reach this peer (e.g. shared memory under
    // UCX_TLS=all): still connect, without dead-peer detection (describe() says so).
    p.err_mode = ep.err_mode = UCP_ERR_HANDLING_MODE_NONE;
    s = ucp_ep_create(worker_.get(), &ep, &h);
  }
  check(s, "ucp_ep_create",
        "rank " + std::to_string(p.rank) + ", " + settings_text(selection_) +
            (s == UCS_ERR_UNREACHABLE ? "; no transport allowed on both ranks reaches the peer"
                                      : ""));
  return Endpoint(worker_.get(), h);
}

void UcxTransport::connect(Bootstrap& boot, std::span<const int> peers) {
  if (connected_) throw Error("ucx: connect() called twice");
  rank_ = boot.rank();
  const int n = boot.size();
  peers_ = std::vector<Peer>(static_cast<size_t>(n));
  check_peer_list(peers);

  PeerBlob mine;
  mine.worker_address = worker_address(worker_.get());
  mine.selection = selection_;
  mine.memory_domain = shared_memory_domain();
  for (const LocalRegion& r : regions_)
    mine.regions.push_back({reinterpret_cast<uintptr_t>(r.base), r.length, r.packed_rkey});
  // The same blob for every peer: an allgather (each rank's blob travels to rank 0 once, not
  // once per peer); ranks that are no peer of this one are ignored.
  const std::vector<Bytes> in = boot.allgather(encode_peer_blob(mine));

  // Decode and check every peer before touching UCX, so a wrong setting is named for all.
  std::vector<PeerBlob> blobs(static_cast<size_t>(n));
  std::string mismatches;
  for (int r : peers) {
    blobs[r] = decode_peer_blob(in[r], r);
    std::string m = selection_mismatch(selection_, blobs[r].selection, r);
    if (blobs[r].regions.size() != regions_.size() && m.empty())
      m = "rank " + std::to_string(r) + " registered " + std::to_string(blobs[r].regions.size()) +
          " memory regions, this rank " + std::to_string(regions_.size()) +
          ": register the same regions in the same order on every rank";
    if (!m.empty()) mismatches += (mismatches.empty() ? "" : "; ") + m;
  }
  if (!mismatches.empty()) throw Error("ucx: connect(): " + mismatches);

  size_t slots = peers.size() * (size_t{opts_.send_depth} + opts_.recv_depth);
  slots_ = OpSlots(this, static_cast<uint32_t>(slots));
  ring_ = CompletionRing(slots);
  for (int r : peers) {
    Peer& p = peers_[r];
    p.owner = this;
    p.rank = r;
    const bool same = !mine.memory_domain.empty() && blobs[r].memory_domain == mine.memory_domain;
    // Per direction: UCX pairs the endpoints two ranks create to each other in creation order
    // (each rank's first with the other's first, over one connection), so the lower rank sends
    // on its first and the higher on its second; the other one only carries the peer's data in.
    const bool split = opts_.ucx_connection_per_direction;
    if (split && rank_ > r) p.ep_return = create_endpoint(p, blobs[r].worker_address, same);
    p.ep = create_endpoint(p, blobs[r].worker_address, same);
    if (split && rank_ < r) p.ep_return = create_endpoint(p, blobs[r].worker_address, same);
    for (const RegionInfo& ri : blobs[r].regions)
      p.regions.push_back({ri.addr, ri.length, unpack_rkey(p.ep.get(), ri.rkey, r)});
  }
  handshake(peers);
  std::string bypass;
  for (int r : peers) {
    peers_[r].info = query_endpoint(peers_[r].ep.get());
    peers_[r].connected = true;
    if (!peers_[r].same_host && allows_shared_memory(selection_.tls)) {
      for (const std::string& tl : peers_[r].info.transports()) {
        if (allows_shared_memory(tl) && tl != "all") {
          bypass += (bypass.empty() ? "" : ", ") + std::to_string(r);
          break;
        }
      }
    }
  }
  if (!bypass.empty()) {
    // One kernel, other network namespaces (the namespace star): UCX still sees one machine.
    std::fprintf(stderr,
                 "ucx: rank %d reaches rank(s) %s through shared memory although they are in "
                 "another network namespace: that traffic bypasses the network between them; "
                 "--ucx-tls tcp,self (or another network transport) keeps it on the network\n",
                 rank_, bypass.c_str());
  }
  connected_ = true;
  start_idle_progress();
}

// Three rounds, each waited for while progressing, all within connect_timeout_ms:
// 1. hello: every rank sends its rank to every peer and waits for theirs. Endpoint creation
//    is lazy (tcp connects, RC wires up on first use), so this is where an unreachable peer
//    shows.
// 2. flush: returns once every lane is wired up, so no wire-up message is left queued when
//    the caller starts measuring or tears down (UCX 1.13 asserts when a worker is destroyed
//    with a wire-up request pending).
// 3. ready: a flush may need the peer's progress to finish, and a rank that returned from
//    connect() no longer progresses; the last round only needs each peer to receive, which
//    its own progress does, so no rank can be left waiting on one that already returned.
void UcxTransport::handshake(std::span<const int> peers) {
  ucp_worker_h w = worker_.get();
  // Members, not locals: a request still in flight when we give up must not point at a dead
  // stack frame; shutdown() closes the endpoints before these go.
  hello_in_.assign(peers.size(), ~uint64_t{0});
  hello_out_ = static_cast<uint64_t>(rank_);
  struct Pending {
    ucs_status_ptr_t req;
    int rank;
    const char* what;
  };
  std::vector<Pending> pending;
  std::string errors;
  std::string silent;
  auto track = [&](ucs_status_ptr_t r, int rank, const char* what) {
    if (UCS_PTR_IS_ERR(r))
      errors += "; " + std::string(what) + " rank " + std::to_string(rank) + ": " +
                ucs_status_string(UCS_PTR_STATUS(r));
    else if (r != nullptr)
      pending.push_back({r, rank, what});
  };
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(std::max(opts_.connect_timeout_ms, 1));
  int64_t last_event = now_ns();
  auto wait_all = [&] {
    for (Pending& pd : pending) {
      const ucs_status_t s = wait_request(w, pd.req, deadline, last_event);
      if (s == UCS_INPROGRESS) {
        ucp_request_cancel(w, pd.req);
        silent += (silent.empty() ? "" : ", ") + std::string(pd.what) + " rank " +
                  std::to_string(pd.rank);
      } else if (s != UCS_OK) {
        errors += "; " + std::string(pd.what) + " rank " + std::to_string(pd.rank) + ": " +
                  ucs_status_string(s);
      }
      ucp_request_free(pd.req);
    }
    pending.clear();
    return errors.empty() && silent.empty();
  };
  auto exchange = [&](ucp_tag_t kind, const char* from, const char* to) {
    for (size_t i = 0; i < peers.size(); ++i) {
      ucp_request_param_t p{};
      track(ucp_tag_recv_nbx(w, &hello_in_[i], sizeof(uint64_t), make_tag(kind, peers[i]), kTagFull,
                             &p),
            peers[i], from);
    }
    for (int r : peers) {
      ucp_request_param_t p{};
      track(ucp_tag_send_nbx(peers_[r].ep.get(), &hello_out_, sizeof hello_out_,
                             make_tag(kind, rank_), &p),
            r, to);
    }
    if (!wait_all()) return false;
    for (size_t i = 0; i < peers.size(); ++i)
      if (hello_in_[i] != static_cast<uint64_t>(peers[i]))
        errors += "; rank " + std::to_string(peers[i]) + " answered as rank " +
                  std::to_string(hello_in_[i]);
    return errors.empty();
  };
  auto flush = [&] {
    for (int r : peers) {
      ucp_request_param_t p{};
      track(ucp_ep_flush_nbx(peers_[r].ep.get(), &p), r, "flush to");
      if (peers_[r].ep_return)
        track(ucp_ep_flush_nbx(peers_[r].ep_return.get(), &p), r, "flush to");
    }
    return wait_all();
  };

  (void)(exchange(kHelloKind, "hello from", "hello to") && flush() &&
         exchange(kReadyKind, "ready from", "ready to"));
  if (!silent.empty())
    throw TimeoutError("ucx: connect(): no answer within " +
                       std::to_string(opts_.connect_timeout_ms) + " ms: " + silent + " (" +
                       settings_text(selection_) + ")" + errors);
  if (!errors.empty())
    throw Error("ucx: connect(): handshake failed (" + settings_text(selection_) + ")" + errors);
}

}  // namespace dlcnet::ucx
