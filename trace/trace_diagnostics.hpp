// Problems found while reading a trace, each tied to a file and a line. Errors reject the job;
// warnings are the tolerable oddities of real captures (the job still loads); notes are
// expected quirks of the capture code, counted but not worth a line each.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlcnet::trace {

enum class Severity : uint8_t { kNote, kWarning, kError };

enum class Problem : uint8_t {
  // Errors.
  kIo,                  // cannot open or read a file
  kNotATrace,           // the first lines are not a DLC trace at all
  kBadHeader,           // header block or column line missing or unreadable
  kMissingField,        // a row has fewer fields than its operation needs
  kBadNumber,           // a numeric field is not a number or is out of range
  kUnknownOperation,    // OP:= names no known operation
  kBadOpId,             // OP_ID is not key-opnum-role or names a peer that cannot be
  kBadDependency,       // dep_Type/IDdep malformed or inconsistent with the operation
  kDanglingDependency,  // IDdep names a record that does not exist in the file
  kDependencyCycle,     // records that (transitively) depend on themselves
  kWrongNode,           // a row belongs to another node or role than the file
  kInconsistentJob,     // files disagree on the job (worker/server counts, two files a node)
  kUnmatchedMessage,    // Chakra: a send or receive without its other side, or sizes differ
  // Warnings.
  kRepeatedId,          // ID equal to the previous record's
  kOutOfOrder,          // ID or time stamp lower than the previous record's
  kRepeatedOpId,        // two records with the same OP_ID (the first one is the target)
  kAmbiguousOpnum,      // opnum not at its operation's position in the group of four
  kTruncatedLine,       // last line of a file cut short
  kUnmatchedSend,       // a send whose receive is missing from the receiver's file
  kUnmatchedReceive,    // a receive whose send is missing from the sender's file
  kHeaderRoleMismatch,  // header says worker_hostname in a server's file, or the reverse
  kSkippedFile,         // a file in a job directory that is not used
  // Notes.
  kStaleListEntry,  // one-to-many IDdep entry for a peer that never exchanged that key
  kPeerFileAbsent,  // messages whose other side's file is not part of the job
};
inline constexpr size_t kNumProblems = 26;

Severity severity(Problem p) noexcept;
// Stable snake_case name, used in JSON output and tests: "repeated_id", "dependency_cycle"..
std::string_view problem_name(Problem p) noexcept;
std::string_view severity_name(Severity s) noexcept;
// What the kind means, in one line ("a send whose receive is missing from ...").
std::string_view problem_meaning(Problem p) noexcept;

struct Diagnostic {
  Problem problem;
  std::string file;
  uint32_t line = 0;  // 0: the file as a whole
  std::string message;
};

class Diagnostics {
 public:
  // Keeps the text of at most `keep_per_problem` diagnostics of each kind; counts stay exact.
  explicit Diagnostics(size_t keep_per_problem = 10000) : keep_(keep_per_problem) {}

  // False when the text would be dropped: callers skip building it.
  bool wants(Problem p) const noexcept { return counts_[idx(p)] < keep_; }
  void add(Problem p, std::string_view file, uint32_t line, std::string message);
  // Counts without text (notes that would drown the output).
  void count(Problem p, uint64_t n = 1) noexcept { counts_[idx(p)] += n; }
  // Counts one, and keeps where the first of its kind was (the example explain() gives).
  void count_at(Problem p, std::string_view file, uint32_t line);

  uint64_t count_of(Problem p) const noexcept { return counts_[idx(p)]; }
  uint64_t total(Severity s) const noexcept;
  uint64_t errors() const noexcept { return total(Severity::kError); }
  uint64_t warnings() const noexcept { return total(Severity::kWarning); }
  const std::vector<Diagnostic>& kept() const noexcept { return kept_; }

  // "file:line: error: message" (":line" omitted for 0).
  static std::string format(const Diagnostic& d);
  // One line per kept diagnostic in file/line order, then "N more <kind>" lines for dropped
  // ones and a summary line of counts.
  std::string report() const;
  // For every kind that occurred, one "#   kind (severity): meaning; e.g. first example" line
  // under a heading; empty when nothing occurred.
  std::string explain() const;
  // The first error formatted, plus how many more: for exceptions.
  std::string first_errors(size_t n) const;

 private:
  static size_t idx(Problem p) noexcept { return static_cast<size_t>(p); }
  size_t keep_;
  std::array<uint64_t, kNumProblems> counts_{};
  std::vector<Diagnostic> kept_;
  std::array<std::string, kNumProblems> first_at_;  // "file:line" of count_at()'s first
};

}  // namespace dlcnet::trace
