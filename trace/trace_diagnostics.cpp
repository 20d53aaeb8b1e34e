#include "trace/trace_diagnostics.hpp"

#include <algorithm>
#include <sstream>

namespace dlcnet::trace {
namespace {

struct ProblemInfo {
  Severity severity;
  std::string_view name;
};

constexpr std::array<ProblemInfo, kNumProblems> kProblems{{
    {Severity::kError, "io"},
    {Severity::kError, "not_a_trace"},
    {Severity::kError, "bad_header"},
    {Severity::kError, "missing_field"},
    {Severity::kError, "bad_number"},
    {Severity::kError, "unknown_operation"},
    {Severity::kError, "bad_op_id"},
    {Severity::kError, "bad_dependency"},
    {Severity::kError, "dangling_dependency"},
    {Severity::kError, "dependency_cycle"},
    {Severity::kError, "wrong_node"},
    {Severity::kError, "inconsistent_job"},
    {Severity::kWarning, "repeated_id"},
    {Severity::kWarning, "out_of_order"},
    {Severity::kWarning, "repeated_op_id"},
    {Severity::kWarning, "ambiguous_opnum"},
    {Severity::kWarning, "truncated_line"},
    {Severity::kWarning, "unmatched_send"},
    {Severity::kWarning, "unmatched_receive"},
    {Severity::kWarning, "header_role_mismatch"},
    {Severity::kWarning, "skipped_file"},
    {Severity::kNote, "stale_list_entry"},
    {Severity::kNote, "peer_file_absent"},
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
