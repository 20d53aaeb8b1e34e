// What the model knows of the fabric at hand: a link rate, a base one-way latency, a fixed
// per-message overhead (optionally per size) and the packet layout that turns a message's
// payload into bytes on the wire. Read from a small JSON file (docs/model.md, "Calibration").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dlcnet::model {

// The overhead of messages of at least `min_bytes` (up to the next entry's min_bytes).
struct SizeOverhead {
  uint64_t min_bytes = 0;
  double overhead_s = 0;
};

struct Calibration {
  double link_rate_Bps = 0;   // every host's up and down link, bytes of wire per second
  double base_latency_s = 0;  // one way, an empty message on an idle network
  double overhead_s = 0;      // per message, before its first byte enters the wire
  std::vector<SizeOverhead> overhead_by_size;  // ascending min_bytes; overrides overhead_s
  // Packets: every `payload_bytes` of a message (and its last, shorter part) carry
  // `header_bytes` more on the wire. The defaults are HPCC's: 1000 B payload, 48 B header
  // (Ethernet 14 + IPv4 20 + UDP 8 + sequence 4 + priority group 2, no INT).
  uint32_t payload_bytes = 1000;
  uint32_t header_bytes = 48;
  // A token bucket on every link (model/link_buckets.hpp), as the namespace star's tbf has:
  // its depth in bytes of wire (0: none) and the rate a link serves at while it holds tokens.
  double bucket_bytes = 0;
  double burst_rate_Bps = 0;

  // The overhead of one message of `bytes` payload.
  double overhead_for(uint64_t bytes) const noexcept;
  // `bytes` of payload plus one header per packet (an empty message is one packet).
  double wire_bytes(uint64_t bytes) const noexcept;
};

// Throws Error naming `source` and the key on a missing or invalid value.
Calibration calibration_from_json(const nlohmann::json& j, const std::string& source);
Calibration read_calibration(const std::string& path);
nlohmann::json to_json(const Calibration& c);

}  // namespace dlcnet::model
