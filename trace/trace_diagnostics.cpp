#include "trace/trace_diagnostics.hpp"

#include <algorithm>
#include <sstream>

namespace dlcnet::trace {
namespace {

struct ProblemInfo {
  Severity severity;
  std::string_view name;
  std::string_view meaning;  // one line, for `dlc-trace validate`'s explanations
};

constexpr std::array<ProblemInfo, kNumProblems> kProblems{{
    {Severity::kError, "io", "a file could not be opened or read"},
    {Severity::kError, "not_a_trace",
     "the first lines are not a DLC trace (no header block or column line of the capture); "
     "Chakra: the stream's framing or a message is broken"},
    {Severity::kError, "bad_header", "the header block or the column-name line is unreadable"},
    {Severity::kError, "missing_field",
     "a row has fewer fields than its operation needs; the row is dropped"},
    {Severity::kError, "bad_number",
     "a numeric field is not a number or out of its range; the row is dropped"},
    {Severity::kError, "unknown_operation", "OP:= names no operation of the capture code"},
    {Severity::kError, "bad_op_id",
     "OP_ID is not key-opnum-role, or names a peer this job cannot have"},
    {Severity::kError, "bad_dependency",
     "dep_Type or IDdep is malformed, or does not fit the row's operation"},
    {Severity::kError, "dangling_dependency", "IDdep names a record the file does not hold"},
    {Severity::kError, "dependency_cycle", "records depend on themselves through their IDdep"},
    {Severity::kError, "wrong_node", "a row belongs to another node or role than its file"},
    {Severity::kError, "inconsistent_job",
     "the files disagree on the job (worker or server counts, two files for one node)"},
    {Severity::kError, "unmatched_message",
     "a Chakra send or receive whose other side is not in the peer's file, or whose sizes "
     "differ: a replay would wait for it forever"},
    {Severity::kWarning, "repeated_id",
     "a row's ID equals the previous row's (the capture wrote the counter twice); kept"},
    {Severity::kWarning, "out_of_order",
     "a row's ID or time stamp is lower than the previous row's; rows keep their file order"},
    {Severity::kWarning, "repeated_op_id",
     "two records carry the same OP_ID; dependencies on it name the first"},
    {Severity::kWarning, "ambiguous_opnum",
     "an opnum is not at its operation's place in the key's group of four (push send, push "
     "receive, pull send, pull receive)"},
    {Severity::kWarning, "truncated_line",
     "the file's last line has no newline and does not parse: a capture cut short; ignored"},
    {Severity::kWarning, "unmatched_send",
     "a send whose receive is missing from the receiver's file (that file cut short?)"},
    {Severity::kWarning, "unmatched_receive",
     "a receive whose send is missing from the sender's file (that file cut short?)"},
    {Severity::kWarning, "header_role_mismatch",
     "the header says worker_hostname in a server's file, or server_hostname in a worker's"},
    {Severity::kWarning, "skipped_file", "a file in the job directory that is not read"},
    {Severity::kNote, "stale_list_entry",
     "a worker's one-to-many IDdep lists a server that never held that key (the capture code "
     "lists every server); that entry is ignored"},
    {Severity::kNote, "peer_file_absent",
     "a message whose other side's file is not part of the job: only this side is known"},
}};

}  // namespace

Severity severity(Problem p) noexcept {
  return kProblems[static_cast<size_t>(p)].severity;
}
std::string_view problem_name(Problem p) noexcept {
  return kProblems[static_cast<size_t>(p)].name;
}

std::string_view severity_name(Severity s) noexcept {
  switch (s) {
    case Severity::kNote:
      return "note";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "?";
}

std::string_view problem_meaning(Problem p) noexcept {
  return kProblems[static_cast<size_t>(p)].meaning;
}

void Diagnostics::count_at(Problem p, std::string_view file, uint32_t line) {
  if (counts_[idx(p)]++ == 0) {
    first_at_[idx(p)] = std::string(file) + (line != 0 ? ":" + std::to_string(line) : "");
  }
}

std::string Diagnostics::explain() const {
  std::array<const Diagnostic*, kNumProblems> first{};
  for (const auto& d : kept_) {
    const Diagnostic*& f = first[idx(d.problem)];
    if (f == nullptr || d.file < f->file || (d.file == f->file && d.line < f->line)) f = &d;
  }
  std::ostringstream out;
  bool any = false;
  for (size_t i = 0; i < kNumProblems; ++i) {
    if (counts_[i] == 0) continue;
    if (!any) out << "# what each kind means (docs/trace-model.md, section 5), with one example:\n";
    any = true;
    out << "#   " << kProblems[i].name << " (" << severity_name(kProblems[i].severity)
        << "): " << kProblems[i].meaning;
    if (first[i] != nullptr) {
      out << "; e.g. " << format(*first[i]);
    } else if (!first_at_[i].empty()) {
      out << "; e.g. " << first_at_[i];
    }
    out << '\n';
  }
  return out.str();
}

void Diagnostics::add(Problem p, std::string_view file, uint32_t line, std::string message) {
  if (counts_[idx(p)]++ < keep_) {
    kept_.push_back(Diagnostic{p, std::string(file), line, std::move(message)});
  }
}

uint64_t Diagnostics::total(Severity s) const noexcept {
  uint64_t n = 0;
  for (size_t i = 0; i < kNumProblems; ++i) {
    if (kProblems[i].severity == s) n += counts_[i];
  }
  return n;
}

std::string Diagnostics::format(const Diagnostic& d) {
  std::string out = d.file;
  if (d.line != 0) out += ":" + std::to_string(d.line);
  out += ": ";
  out += severity_name(severity(d.problem));
  out += ": ";
  out += d.message;
  return out;
}

std::string Diagnostics::report() const {
  std::vector<const Diagnostic*> order;
  order.reserve(kept_.size());
  for (const auto& d : kept_) order.push_back(&d);
  std::stable_sort(order.begin(), order.end(), [](const Diagnostic* a, const Diagnostic* b) {
    return a->file != b->file ? a->file < b->file : a->line < b->line;
  });
  std::ostringstream out;
  std::array<uint64_t, kNumProblems> shown{};
  for (const Diagnostic* d : order) {
    out << format(*d) << '\n';
    ++shown[idx(d->problem)];
  }
  for (size_t i = 0; i < kNumProblems; ++i) {
    if (counts_[i] > shown[i] && kProblems[i].severity != Severity::kNote) {
      out << "... " << counts_[i] - shown[i] << " more " << kProblems[i].name << " "
          << severity_name(kProblems[i].severity) << "s not shown\n";
    }
  }
  out << errors() << " errors, " << warnings() << " warnings";
  const uint64_t notes = total(Severity::kNote);
  if (notes != 0) {
    out << ", " << notes << " notes (";
    bool first = true;
    for (size_t i = 0; i < kNumProblems; ++i) {
      if (kProblems[i].severity == Severity::kNote && counts_[i] != 0) {
        out << (first ? "" : ", ") << kProblems[i].name << ": " << counts_[i];
        first = false;
      }
    }
    out << ")";
  }
  out << '\n';
  return out.str();
}

std::string Diagnostics::first_errors(size_t n) const {
  std::string out;
  size_t shown = 0;
  for (const auto& d : kept_) {
    if (severity(d.problem) != Severity::kError) continue;
    if (shown == n) break;
    if (shown != 0) out += "\n";
    out += format(d);
    ++shown;
  }
  if (errors() > shown) out += "\n(" + std::to_string(errors() - shown) + " more errors)";
  return out;
}

}  // namespace dlcnet::trace
