// An N-rank pattern's use of one transport (fan-in, ring): posts that retry while the peer's
// queue is full, and waits that poll with a deadline and the rank's idle policy, asking the
// bootstrap whether a rank failed. Completions go to a handler with the time they were seen.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "core/bootstrap.hpp"
#include "core/idle.hpp"
#include "core/transport.hpp"

namespace dlcnet {

// wr_id: the pattern's kind of operation in the top byte, an index below.
inline uint64_t make_wr_id(uint8_t kind, uint64_t index) noexcept {
  return (uint64_t{kind} << 56) | (index & ((uint64_t{1} << 56) - 1));
}
inline uint8_t kind_of(uint64_t id) noexcept {
  return static_cast<uint8_t>(id >> 56);
}
inline uint64_t index_of(uint64_t id) noexcept {
  return id & ((uint64_t{1} << 56) - 1);
}

class RankWire {
 public:
  using Handler = std::function<void(const Completion&, int64_t now_ns)>;
  // `boot` is asked every 10 ms of a wait whether a rank failed (Bootstrap::check_peers), so a
  // rank waiting for its turn stops as soon as the job fails elsewhere. `limit`: how long one
  // wait lasts, the wait limit of the run's --timeout (core/stop_budget.hpp).
  RankWire(Transport& t, Bootstrap& boot, Idle idle, std::chrono::milliseconds limit,
           Handler on_completion);

  // Returns the time of the post that the transport took (after any retries while busy).
  int64_t send(int peer, RegionId region, size_t offset, size_t length, uint64_t id);
  // The same for an RDMA write of local [offset, offset + length) to the peer's `region` at
  // `remote_offset`.
  int64_t write(int peer, RegionId region, size_t offset, size_t length, size_t remote_offset,
                uint64_t id);
  void recv(int peer, RegionId region, size_t offset, size_t length, uint64_t id);
  // Polls until done() holds, for at most `rounds` x the limit (a rank waiting through other
  // ranks' rounds, each bounded by the limit at the server); Error "<what> within N s"
  // (what() is asked only then), a StallError naming the ranks waited for that peers() says.
  void wait(const std::function<bool()>& done, const std::function<std::string()>& what,
            int64_t rounds = 1, const std::function<std::vector<int>()>& peers = {});
  // Polls until now_ns() >= at, keeping completions flowing.
  void wait_until(int64_t at_ns);
  void poll_once();
  // Bootstrap::check_peers() at most every 10 ms: throws Error when a rank failed.
  void check_peers();

 private:
  template <class Post>
  int64_t post(int peer, const char* what, Post p);

  Transport& t_;
  Bootstrap& boot_;
  Idle idle_;
  std::chrono::milliseconds limit_;
  Handler on_;
  // The completions of one poll: a member, so a spinning wait does not construct 32 of them
  // per poll (that and the clock read took three times the transport's own progress). A
  // handler may post but never poll.
  std::array<Completion, 32> polled_{};
  uint32_t spins_ = 0;
  int64_t next_check_ = 0;
};

}  // namespace dlcnet
