#include "trace/chakra/chakra_reader.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "trace/chakra/chakra_groups.hpp"
#include "trace/chakra/chakra_mapped_file.hpp"
#include "trace/chakra/chakra_node_decode.hpp"
#include "trace/chakra/chakra_stream.hpp"
#include "trace/chakra/et_def.pb.h"

namespace dlcnet::trace::chakra {
namespace {

void add(Diagnostics& diag, Problem p, std::string_view file, const std::string& what) {
  if (diag.wants(p)) {
    diag.add(p, file, 0, what);
  } else {
    diag.count(p);
  }
}

bool parse(google::protobuf::MessageLite& m, std::string_view bytes) {
  return m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

}  // namespace

bool read_rank(std::string_view bytes, std::string_view file, int32_t rank, Rank& out,
               Diagnostics& diag) {
  return read_rank(bytes, file, rank, out, diag, nullptr);
}

bool read_rank(std::string_view bytes, std::string_view file, int32_t rank, Rank& out,
               Diagnostics& diag, MappedFile* mapped) {
  const auto passed = [mapped](size_t offset) {
    if (mapped != nullptr) mapped->passed(offset);
  };
  out.rank = rank;
  out.file = std::string(file);
  DelimitedStream stream(bytes);
  std::string_view msg;
  std::string error;
  switch (stream.next(msg, error)) {
    case DelimitedStream::Next::kEnd:
      add(diag, Problem::kNotATrace, file, "empty file: no GlobalMetadata (not a Chakra ET file)");
      return false;
    case DelimitedStream::Next::kError:
      add(diag, Problem::kNotATrace, file, "GlobalMetadata at " + error);
      return false;
    case DelimitedStream::Next::kMessage:
      break;
  }
  pb::GlobalMetadata meta;
  if (!parse(meta, msg)) {
    add(diag, Problem::kNotATrace, file,
        "byte offset 0: the first message does not parse as a GlobalMetadata (not a Chakra ET "
        "file?)");
    return false;
  }
  out.version = meta.version();
  // The nodes counted first (the frames alone, cheap): one allocation of the node array, no
  // moves of grown copies, no spare capacity held.
  {
    DelimitedStream count(bytes);
    std::string ignored;
    size_t frames = 0;
    while (count.next(msg, ignored) == DelimitedStream::Next::kMessage) {
      ++frames;
      passed(count.frame_offset());
    }
    out.nodes.reserve(frames > 0 ? frames - 1 : 0);
  }
  bool ok = true;
  pb::Node node;
  for (uint32_t index = 0;; ++index) {
    passed(stream.frame_offset());
    const DelimitedStream::Next next = stream.next(msg, error);
    if (next == DelimitedStream::Next::kEnd) break;
    if (next == DelimitedStream::Next::kError) {
      add(diag, Problem::kNotATrace, file, "node #" + std::to_string(index) + " at " + error);
      return false;
    }
    if (!parse(node, msg)) {
      add(diag, Problem::kNotATrace, file,
          "node #" + std::to_string(index) + " at byte offset " +
              std::to_string(stream.frame_offset()) + ": does not parse as a Chakra Node");
      ok = false;
      continue;
    }
    Node n;
    n.index = index;
    if (decode_node(node, rank, file, out.store, n, diag)) {
      if (n.type == NodeType::kMetadata && is_group_definition(n.name())) {
        out.group_definitions.push_back(
            {static_cast<uint32_t>(out.nodes.size()), node.inputs().values()});
      }
      out.nodes.push_back(std::move(n));
    } else {
      ok = false;
    }
  }
  return ok;
}

bool read_rank_file(const std::string& path, int32_t rank, Rank& out, Diagnostics& diag,
                    size_t window) {
  MappedFile mapped;
  std::string error;
  if (mapped.open(path, error, window)) {
    const bool ok = read_rank(mapped.bytes(), path, rank, out, diag, &mapped);
    if (!mapped.shrank()) return ok;
    add(diag, Problem::kIo, path,
        "the file shrank while it was read (another process truncated or rewrote it): read it "
        "again once it is complete");
    return false;
  }
  const std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) {
    add(diag, Problem::kIo, path, std::string("cannot open: ") + std::strerror(errno));
    return false;
  }
  // Not a file that maps (a pipe...): read in blocks. The content's size is what the file holds,
  // whatever any length says.
  std::string bytes;
  char block[1 << 16];
  size_t n = 0;
  while ((n = std::fread(block, 1, sizeof block, f.get())) > 0) bytes.append(block, n);
  if (std::ferror(f.get()) != 0) {
    add(diag, Problem::kIo, path, "read error");
    return false;
  }
  return read_rank(bytes, path, rank, out, diag);
}

}  // namespace dlcnet::trace::chakra
