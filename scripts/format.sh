#!/usr/bin/env bash
# Formats the project's C++ sources with clang-format (style: .clang-format).
#   scripts/format.sh [--check] [file...]
# Without files: every tracked *.cpp and *.hpp. Given files that are not *.cpp or *.hpp are
# skipped, not formatted: clang-format formats anything it is handed as C++ (`clang-format -i
# launch/*` once turned launch/CMakeLists.txt into C++-shaped text), and Debian 12's
# clang-format 14 does not read .clang-format-ignore. --check changes nothing and fails,
# naming them, when files are not formatted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
check=0
if [[ "${1:-}" == --check ]]; then
  check=1
  shift
fi
files=()
if [[ $# -eq 0 ]]; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
else
  for f in "$@"; do
    case "$f" in
      *.cpp | *.hpp) files+=("$f") ;;
      *) echo "format.sh: skipping $f (not C++)" >&2 ;;
    esac
  done
fi
[[ ${#files[@]} -eq 0 ]] && exit 0
if [[ $check -eq 1 ]]; then
  exec clang-format --dry-run -Werror "${files[@]}"
fi
exec clang-format -i "${files[@]}"
