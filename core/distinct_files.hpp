// Outputs that would overwrite each other or an input (`predict --out X --json X`,
// `predict F --out F`, `calibrate R1 R2 --out R1`), refused before the work starts with a
// message naming both: one of them would otherwise be lost without a word.
// Two names are one file when they lead to the same inode (links followed), or, for a path
// that does not exist yet, to the same absolute path. An existing file that is not a regular
// one (/dev/null, /dev/stdout, a FIFO) is written as a stream and never replaced
// (core/output_file.hpp): naming it twice is allowed.
#pragma once

#include <string>
#include <vector>

namespace dlcnet {

struct NamedPath {
  std::string name;  // the option or argument: "--out", "FLOW_TXT"
  std::string path;  // empty: not given (skipped)
  bool output = false;
};

// Throws Error("--out x and --json x name one file: ...") for the first clash.
void check_distinct_files(const std::vector<NamedPath>& files);

}  // namespace dlcnet
