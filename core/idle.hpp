// What a rank does while it waits, for every tool that waits on a transport (the replay
// engine, clock alignment, the job layer's release).
#pragma once

#include <cstdint>

namespace dlcnet {

// What a rank does while nothing is due: spin on the transport (lowest latency), yield the CPU
// between polls (ranks sharing CPUs), sleep in short naps once idle for a while (emulated
// guests, where a spinning vCPU takes a host core from the ones doing the work), or block on
// the transport's events until shortly before the next post is due and spin from there (ranks
// sharing CPUs, on a transport that can wait for events: Transport::can_wait_event()).
enum class Idle : uint8_t { spin, yield, sleep, block };

const char* to_string(Idle i) noexcept;

// A rank that waits with nothing to do for `quiet_ns` (since it last saw traffic) sleeps a
// nap, longer the longer the quiet (50 us to `max_nap_ns`, nothing in the first 2 ms): dozens
// of ranks polling on shared CPUs would leave the ranks with work a small share of them
// (set-up time grew as N squared), and a rank in the middle of an exchange does not nap.
// Waits whose answer is due soon (a ping-pong's) keep the 1 ms default; set-up waits (an
// endpoint's handshake or close, which hundreds of ranks wait on at once) nap up to
// kSetupNapMaxNs: 256 ranks each waking every millisecond took the 2 CPUs of this project's
// host for themselves.
inline constexpr int64_t kNapMaxNs = 1'000'000;
inline constexpr int64_t kSetupNapMaxNs = 8'000'000;
void nap_when_quiet(int64_t quiet_ns, int64_t max_nap_ns = kNapMaxNs) noexcept;

}  // namespace dlcnet
