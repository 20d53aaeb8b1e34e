// The shaped port of a namespace star (scripts/netns-star.sh) as a dlc-bench report's context
// describes it, in the calibration's terms (model/calibration.hpp): a rate of Ethernet frames
// and the packet that carries a message's payload. The star's tbf (or htb) counts a frame as
// what the veth carries: one TCP segment of MSS payload bytes is MSS + 66 bytes (Ethernet 14,
// IPv4 20, TCP 20, timestamps 12, as Linux sends them), MSS = MTU - 52.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace dlcnet::model {

struct StarLink {
  std::string rate_text;  // as the star's description gives it: "100mbit"
  double rate_Bps = 0;    // bytes of frames per second
  uint32_t mtu = 0;       // the smallest MTU of the report's interfaces
  uint32_t payload_bytes = 0;
  uint32_t header_bytes = 0;
  double bucket_bytes = 0;  // the tbf's burst, let through at a veth's speed
  double payload_Bps() const noexcept {
    return rate_Bps * payload_bytes / (payload_bytes + header_bytes);
  }
};

// The star the report ran on, or nullopt when its context names none (`context.star` absent
// or null). Throws Error naming `file` and the key when a description is there but its tbf
// rate or burst or the interfaces' MTU cannot be read.
std::optional<StarLink> star_link_of(const nlohmann::json& report, const std::string& file);

}  // namespace dlcnet::model
