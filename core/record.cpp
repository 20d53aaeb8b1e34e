#include "core/record.hpp"

#include <cinttypes>
#include <cstdio>

#include "core/error.hpp"

namespace dlcnet {

const char* RecordWriter::header() noexcept {
  return "seq,op,bytes,src,dst,signaled,planned_ns,post_ns,complete_ns,arrival_ns,key,opnum";
}

RecordWriter::RecordWriter(const std::string& path, const std::string& option)
    : out_(option, path, OutputFile::Mode::stream) {
  out_.put(header());
  out_.put("\n");
}

RecordWriter::~RecordWriter() {
  try {
    out_.commit();
  } catch (const Error& e) {
    std::fprintf(stderr, "dlcnet: %s\n", e.what());
  }
}

void RecordWriter::write(const MessageRecord& r) {
  char line[320];
  const int n = std::snprintf(line, sizeof line,
                              "%" PRIu64 ",%s,%" PRIu64 ",%" PRId32 ",%" PRId32 ",%d,%" PRId64
                              ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
                              r.seq, to_string(r.op), r.bytes, r.src, r.dst, r.signaled ? 1 : 0,
                              r.planned_ns, r.post_ns, r.complete_ns, r.arrival_ns, r.key, r.opnum);
  if (n < 0 || static_cast<size_t>(n) >= sizeof line)
    throw Error(out_.name() + ": a record too long");
  out_.put(std::string_view(line, static_cast<size_t>(n)));
}

void RecordWriter::flush() {
  out_.flush();
}

}  // namespace dlcnet
