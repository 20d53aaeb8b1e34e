#include <ucp/api/ucp.h>

#include "ucx/ucx_transport.hpp"

namespace dlcnet {

std::string ucx_library_version() {
  return ucp_get_version_string();
}

}  // namespace dlcnet
