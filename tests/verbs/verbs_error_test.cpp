#include "verbs/verbs_error.hpp"

#include <gtest/gtest.h>

#include <cerrno>

#include "core/error.hpp"
#include "core/memlock.hpp"

namespace dlcnet::verbs {
namespace {

template <typename F>
std::string thrown(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(VerbsError, NamesDeviceCallArgumentAndErrno) {
  EXPECT_EQ(verbs_error_text("rxe0", "ibv_create_cq(cqe=4096)", ENOMEM),
            "rxe0: ibv_create_cq(cqe=4096): Cannot allocate memory (errno 12)");
  EXPECT_EQ(thrown([] { throw_verbs_error("mlx5_0", "ibv_alloc_pd", EIO); }),
            "mlx5_0: ibv_alloc_pd: Input/output error (errno 5)");
}

TEST(VerbsError, LockedMemoryHintOnlyForRegistrationLimits) {
  for (int err : {ENOMEM, EPERM}) {
    const std::string msg =
        thrown([err] { throw_reg_mr_error("rxe0", "ibv_reg_mr(length=1)", err); });
    // The limit binds only a process without CAP_IPC_LOCK (root holds it); for one that it
    // does not bind, the message says the host is out of memory to pin instead.
    const char* expected = memlock_unbounded() ? "the locked-memory limit does not hold this "
                                                 "process back"
                                               : "raise ulimit -l (locked-memory limit is ";
    EXPECT_NE(msg.find(expected), std::string::npos) << msg;
  }
  const std::string other = thrown([] { throw_reg_mr_error("rxe0", "ibv_reg_mr", EINVAL); });
  EXPECT_EQ(other.find("ulimit"), std::string::npos) << other;
}

TEST(VerbsError, ErrnoFallbacksNeverReadAsSuccess) {
  errno = 0;
  EXPECT_EQ(last_errno(), EIO);
  errno = EAGAIN;
  EXPECT_EQ(last_errno(), EAGAIN);
  EXPECT_EQ(returned_errno(EINVAL), EINVAL);
  errno = EBUSY;
  EXPECT_EQ(returned_errno(-1), EBUSY);
}

}  // namespace
}  // namespace dlcnet::verbs
