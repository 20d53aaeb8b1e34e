// Reading one rank's Chakra ET file: a GlobalMetadata, then Nodes, each length-delimited.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "trace/chakra/chakra_mapped_file.hpp"
#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// Decodes `bytes` (the content of `file`, rank `rank`'s) into `out`. Never throws for what
// the bytes hold: a bad frame (length past the end, a broken varint), a message that does not
// parse or a bad node is a problem in `diag` naming the file, the byte offset or node, and the
// field; reading stops at a bad frame, a bad node is dropped. False when anything was wrong.
bool read_rank(std::string_view bytes, std::string_view file, int32_t rank, Rank& out,
               Diagnostics& diag);

// The same, the bytes those of `mapped` (nullptr: none), whose pages read_rank gives back as it
// passes them.
bool read_rank(std::string_view bytes, std::string_view file, int32_t rank, Rank& out,
               Diagnostics& diag, MappedFile* mapped);

// read_rank() on a file's content, mapped and given back behind the reader in steps of `window`
// bytes (the whole file is never held; a file that does not map, such as a pipe, is read whole);
// an unreadable file is a `kIo` problem.
bool read_rank_file(const std::string& path, int32_t rank, Rank& out, Diagnostics& diag,
                    size_t window = MappedFile::kDefaultWindow);

}  // namespace dlcnet::trace::chakra
