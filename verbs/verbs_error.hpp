// The one boundary where failed verbs and rdma_cm calls become dlcnet::Error. Every message
// has the same shape, "<device>: <call>(<key argument>): <errno text>", e.g.
// "rxe0: ibv_create_cq(cqe=4096): Cannot allocate memory (errno 12)".
#pragma once

#include <string>
#include <string_view>

namespace dlcnet::verbs {

std::string verbs_error_text(std::string_view device, std::string_view call, int err);

[[noreturn]] void throw_verbs_error(std::string_view device, std::string_view call, int err);

// ibv_reg_mr fails with ENOMEM or EPERM when the pages cannot be pinned under RLIMIT_MEMLOCK;
// that is the one cause common enough to name, with the limit in force.
[[noreturn]] void throw_reg_mr_error(std::string_view device, std::string_view call, int err);

// For destructors: prints "dlcnet: <text>" to stderr and never throws.
void log_verbs_failure(std::string_view device, std::string_view call, int err) noexcept;

// Calls that return NULL or -1 report the cause in errno, but a few providers forget to set
// it; never let a failure read as "Success".
int last_errno(int fallback = 5 /* EIO */) noexcept;

// Calls that return the error number directly (ibv_modify_qp, ibv_query_*): some return -1
// and set errno instead.
int returned_errno(int rc) noexcept;

}  // namespace dlcnet::verbs
