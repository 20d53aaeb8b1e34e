#include "core/distinct_files.hpp"

#include <sys/stat.h>

#include <filesystem>

#include "core/error.hpp"

namespace dlcnet {
namespace {

enum class Kind { absent, regular, other };

struct Identity {
  Kind kind = Kind::absent;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string absolute;  // absent: where it would be made
};

Identity identify(const std::string& path) {
  Identity id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.kind = S_ISREG(st.st_mode) ? Kind::regular : Kind::other;
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    return id;
  }
  std::error_code ec;
  id.absolute = std::filesystem::weakly_canonical(path, ec).string();
  if (ec) id.absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
  return id;
}

bool same(const Identity& a, const Identity& b) {
  if (a.kind == Kind::other || b.kind == Kind::other) return false;
  if (a.kind == Kind::regular && b.kind == Kind::regular) {
    return a.dev == b.dev && a.ino == b.ino;
  }
  return a.kind == Kind::absent && b.kind == Kind::absent && a.absolute == b.absolute;
}

std::string named(const NamedPath& f) {
  return f.name + " " + f.path;
}

}  // namespace

void check_distinct_files(const std::vector<NamedPath>& files) {
  std::vector<Identity> ids;
  ids.reserve(files.size());
  for (const NamedPath& f : files) ids.push_back(f.path.empty() ? Identity{} : identify(f.path));
  for (size_t i = 0; i < files.size(); ++i) {
    for (size_t j = i + 1; j < files.size(); ++j) {
      const NamedPath& a = files[i];
      const NamedPath& b = files[j];
      if (a.path.empty() || b.path.empty() || !(a.output || b.output)) continue;
      if (!same(ids[i], ids[j])) continue;
      if (a.output && b.output) {
        throw Error(named(a) + " and " + named(b) +
                    " name one file: one output would replace the other; give each its own");
      }
      const NamedPath& in = a.output ? b : a;
      const NamedPath& out = a.output ? a : b;
      throw Error(named(out) + " is the input " + named(in) +
                  ": writing it would replace what is read; write the output elsewhere");
    }
  }
}

}  // namespace dlcnet
