#include "core/inprocess_bootstrap.hpp"

#include <condition_variable>
#include <mutex>
#include <string>

#include "core/error.hpp"

namespace dlcnet {
namespace {

// One round of a collective: every rank deposits its per-destination blobs, the last one to
// arrive publishes the round, and everyone picks up its column.
struct Shared {
  explicit Shared(int n, std::chrono::milliseconds t) : size(n), timeout(t), slots(n) {}
  std::mutex mu;
  std::condition_variable cv;
  int size;
  std::chrono::milliseconds timeout;
  uint64_t round = 0;
  int arrived = 0;
  int collected = 0;
  std::vector<std::vector<Bytes>> slots;  // slots[src][dst]
  std::vector<std::vector<Bytes>> published;
};

class InProcessBootstrap final : public Bootstrap {
 public:
  InProcessBootstrap(std::shared_ptr<Shared> s, int rank) : s_(std::move(s)), rank_(rank) {}
  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return s_->size; }

  std::vector<Bytes> alltoall(const std::vector<Bytes>& to_each) override {
    if (static_cast<int>(to_each.size()) != s_->size) {
      throw Error("bootstrap: alltoall needs one blob per rank");
    }
    std::unique_lock lk(s_->mu);
    // Wait until the previous round has been collected by everyone.
    if (!s_->cv.wait_for(lk, s_->timeout, [&] { return s_->collected == 0; })) {
      throw TimeoutError("in-process bootstrap: previous collective never finished");
    }
    const uint64_t my_round = s_->round;
    s_->slots[rank_] = to_each;
    if (++s_->arrived == s_->size) {
      s_->published = std::move(s_->slots);
      s_->slots.assign(s_->size, {});
      s_->arrived = 0;
      s_->collected = s_->size;
      ++s_->round;
      s_->cv.notify_all();
    } else if (!s_->cv.wait_for(lk, s_->timeout, [&] { return s_->round != my_round; })) {
      throw TimeoutError("in-process bootstrap: rank " + std::to_string(rank_) +
                         " waited for the other ranks for " + std::to_string(s_->timeout.count()) +
                         " ms");
    }
    std::vector<Bytes> out(s_->size);
    for (int src = 0; src < s_->size; ++src) {
      if (src != rank_) out[src] = s_->published[src][rank_];
    }
    if (--s_->collected == 0) s_->cv.notify_all();
    return out;
  }

  std::vector<Bytes> allgather(const Bytes& mine) override {
    std::vector<Bytes> out = alltoall(std::vector<Bytes>(s_->size, mine));
    out[rank_] = mine;
    return out;
  }

  void barrier() override { alltoall(std::vector<Bytes>(s_->size)); }

 private:
  std::shared_ptr<Shared> s_;
  int rank_;
};

}  // namespace

std::vector<std::unique_ptr<Bootstrap>> make_inprocess_group(int size,
                                                             std::chrono::milliseconds timeout) {
  auto shared = std::make_shared<Shared>(size, timeout);
  std::vector<std::unique_ptr<Bootstrap>> group;
  for (int r = 0; r < size; ++r) group.push_back(std::make_unique<InProcessBootstrap>(shared, r));
  return group;
}

}  // namespace dlcnet
