// --ucx-connections (TransportOptions::ucx_connection_per_direction) over UCX tcp on lo: which
// TCP connections carry which direction's bytes, read from the kernel (TCP_INFO of every
// socket this process holds), after two ranks sent and wrote 1 MiB to each other.
#include <dirent.h>
#include <gtest/gtest.h>
#include <linux/tcp.h>  // tcp_info with byte counters (glibc's netinet/tcp.h has none)
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ucx/ucx_transport.hpp"
#include "ucx_test_support.hpp"

namespace dlcnet::test {
namespace {

struct TcpSocket {
  int fd;
  uint64_t sent;      // bytes the peer acknowledged
  uint64_t received;  // bytes received
};

// Every established TCP socket of this process.
std::vector<TcpSocket> established_tcp_sockets() {
  std::vector<TcpSocket> out;
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    const long fd = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || fd == dirfd(d)) continue;
    int type = 0;
    socklen_t len = sizeof type;
    if (getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_TYPE, &type, &len) != 0 ||
        type != SOCK_STREAM)
      continue;
    tcp_info info{};
    len = sizeof info;
    if (getsockopt(static_cast<int>(fd), IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
        info.tcpi_state != 1 /* TCP_ESTABLISHED */)
      continue;
    out.push_back({static_cast<int>(fd), info.tcpi_bytes_acked, info.tcpi_bytes_received});
  }
  closedir(d);
  return out;
}

bool is_new(const TcpSocket& s, const std::vector<TcpSocket>& before) {
  for (const TcpSocket& b : before)
    if (b.fd == s.fd) return false;
  return true;
}

struct Outcome {
  size_t sockets = 0;        // new established sockets (both ends of every connection)
  size_t two_way = 0;        // of them, sockets that sent and received >= 1 MiB
  size_t data_carrying = 0;  // sockets that sent or received >= 1 MiB
};

// Two ranks over UCX tcp on lo: each sends 1 MiB and writes 1 MiB to the other, data checked;
// then the sockets the connections added are read.
Outcome exchange(bool per_direction) {
  constexpr size_t kBytes = 1 << 20;
  const std::vector<TcpSocket> before = established_tcp_sockets();
  Outcome o;
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    TransportOptions opts;
    opts.ucx_tls = "tcp";
    opts.device = "lo";
    opts.connect_timeout_ms = 10000;
    opts.ucx_connection_per_direction = per_direction;
    auto t = make_ucx_transport(opts);
    std::vector<uint8_t> buf(4 * kBytes);  // [send | receive | write source | written into]
    fill(buf, 0, kBytes, rank);
    fill(buf, 2 * kBytes, kBytes, rank);
    const RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    post_or_throw(
        *t, [&] { return t->post_recv(peer, reg, kBytes, kBytes, 1); }, "recv");
    boot.barrier();
    post_or_throw(
        *t, [&] { return t->post_send(peer, reg, 0, kBytes, 2, true); }, "send");
    post_or_throw(
        *t, [&] { return t->post_write(peer, reg, 2 * kBytes, kBytes, 3 * kBytes, 3, true); },
        "write");
    wait_completions(*t, 3);
    boot.barrier();  // both ranks' writes are complete at their target
    EXPECT_EQ(first_mismatch(buf, kBytes, kBytes, peer), SIZE_MAX) << "received, rank " << rank;
    EXPECT_EQ(first_mismatch(buf, 3 * kBytes, kBytes, peer), SIZE_MAX) << "written, rank " << rank;
    if (rank == 0) {
      for (const TcpSocket& s : established_tcp_sockets()) {
        if (!is_new(s, before)) continue;
        ++o.sockets;
        if (s.sent >= kBytes && s.received >= kBytes) ++o.two_way;
        if (s.sent >= kBytes || s.received >= kBytes) ++o.data_carrying;
      }
    }
    boot.barrier();
  });
  return o;
}

TEST(UcxConnections, PerPeerCarriesBothDirectionsOnOneConnection) {
  const Outcome o = exchange(false);
  EXPECT_EQ(o.sockets, 2u);  // one connection, both of its ends in this process
  EXPECT_EQ(o.two_way, 2u);
}

TEST(UcxConnections, PerDirectionGivesEachDirectionItsOwnConnection) {
  const Outcome o = exchange(true);
  EXPECT_EQ(o.sockets, 4u);  // two connections
  EXPECT_EQ(o.two_way, 0u);  // none carries data both ways
  EXPECT_EQ(o.data_carrying, 4u);
}

TEST(UcxConnections, DescribeNamesTheMode) {
  for (bool per_direction : {false, true}) {
    TransportOptions opts;
    opts.ucx_tls = "tcp";
    opts.ucx_connection_per_direction = per_direction;
    EXPECT_EQ(make_ucx_transport(opts)->describe()["connections"],
              per_direction ? "direction" : "peer");
  }
}

}  // namespace
}  // namespace dlcnet::test
