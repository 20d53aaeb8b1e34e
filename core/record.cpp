#include "core/record.hpp"

#include <cerrno>
#include <cinttypes>

#include "core/error.hpp"

namespace dlcnet {

const char* RecordWriter::header() noexcept {
  return "seq,op,bytes,src,dst,signaled,planned_ns,post_ns,complete_ns,arrival_ns,key,opnum";
}

RecordWriter::RecordWriter(const std::string& path) : path_(path) {
  f_ = std::fopen(path.c_str(), "w");
  if (!f_) throw_errno("cannot open records file " + path);
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
  std::fprintf(f_, "%s\n", header());
}

RecordWriter::~RecordWriter() {
  if (f_ && std::fclose(f_) != 0) std::perror(("closing " + path_).c_str());
}

void RecordWriter::write(const MessageRecord& r) {
  int n = std::fprintf(f_,
                       "%" PRIu64 ",%s,%" PRIu64 ",%" PRId32 ",%" PRId32 ",%d,%" PRId64 ",%" PRId64
                       ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
                       r.seq, to_string(r.op), r.bytes, r.src, r.dst, r.signaled ? 1 : 0,
                       r.planned_ns, r.post_ns, r.complete_ns, r.arrival_ns, r.key, r.opnum);
  if (n < 0) throw_errno("writing records file " + path_);
}

void RecordWriter::flush() {
  if (std::fflush(f_) != 0) throw_errno("flushing records file " + path_);
}

}  // namespace dlcnet
