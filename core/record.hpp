// The one per-message record schema of dlcnet: every tool that moves messages (dlc-bench,
// dlc-replay, the patterns) fills these, and one writer puts them in a CSV.
#pragma once

#include <cstdint>
#include <string>

#include "core/output_file.hpp"
#include "core/transport.hpp"

namespace dlcnet {

// Times are ns of the recording process's own clock, now_ns() (core/clock.hpp: the TSC scaled
// and anchored to CLOCK_MONOTONIC at the process's start-up, or CLOCK_MONOTONIC itself; the
// reports' context says which, "clock": {"source", "times"}); -1 where a field does not apply.
// Clocks of different ranks are not comparable as they stand: dlc-replay's JSON maps every
// rank's clock to rank 0's in its "clock" array (per rank: "offset_s" = rank's clock minus
// rank 0's at rank 0's time "at_s", "drift" its rate, "uncertainty_s" the bound, "method"),
// so rank 0's time of a rank's t is (t - offset + drift * at) / (1 + drift).
struct MessageRecord {
  uint64_t seq = 0;  // per-rank sequence number, from 0
  uint64_t bytes = 0;
  int32_t src = -1;  // sending rank
  int32_t dst = -1;  // receiving rank
  Op op = Op::send;
  bool signaled = true;      // false: complete_ns is that of the signaled completion retiring it
  int64_t planned_ns = -1;   // when it was meant to be posted (replay)
  int64_t post_ns = -1;      // when it was posted
  int64_t complete_ns = -1;  // completion at the sender (for ping-pong: reply arrived)
  int64_t arrival_ns = -1;   // arrival at the receiver, in this rank's clock (replay)
  int64_t key = -1;          // trace key (replay)
  int64_t opnum = -1;        // trace opnum (replay)
};

// Writes records as CSV with a header line, as a stream (core/output_file.hpp, Mode::stream:
// opened at once, so an unwritable path fails before the run). Buffered; flush() puts
// everything written so far in the file so a crash loses nothing already flushed. Throws Error
// naming the option and the path.
class RecordWriter {
 public:
  explicit RecordWriter(const std::string& path, const std::string& option = "--records");
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  void write(const MessageRecord& r);
  void flush();
  const std::string& path() const noexcept { return out_.path(); }

  static const char* header() noexcept;

 private:
  OutputFile out_;
};

}  // namespace dlcnet
