// A pattern's records written as the run goes, each round or size as it completes and flushed,
// so a rank killed later keeps them (issue 31). A write that fails (a full disk, a file size
// limit) does not stop the measurement: the records stop there, whole lines only
// (core/output_file.hpp), and the failure is raised when the run's outputs are written
// (Pattern::write_records), beside the other files' (runner.cpp: every output tried).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/record.hpp"

namespace dlcnet::runner {

class RecordStream {
 public:
  void use(RecordWriter* w) noexcept { w_ = w; }
  bool on() const noexcept { return w_ != nullptr && error_.empty(); }

  // `write(writer, seq)` writes one round's (size's) records, numbered on from seq; flushed.
  // Nothing when off; a failure turns it off.
  template <class Write>
  void add(Write&& write) {
    if (!on()) return;
    try {
      write(*w_, seq_);
      w_->flush();
      ++done_;
    } catch (const Error& e) {
      error_ = e.what();
    }
  }

  // At the end: the rounds (sizes) already in the file, and the failure thrown, if any.
  size_t done() const noexcept { return done_; }
  uint64_t& seq() noexcept { return seq_; }
  void check() const {
    if (!error_.empty()) throw Error(error_);
  }

 private:
  RecordWriter* w_ = nullptr;
  size_t done_ = 0;
  uint64_t seq_ = 0;
  std::string error_;
};

}  // namespace dlcnet::runner
