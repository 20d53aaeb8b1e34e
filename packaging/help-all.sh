#!/usr/bin/env bash
# help-all.sh TOOL --help|--version: the text help2man turns into TOOL's man page
# (cmake/dlcnet_install.cmake). --help: TOOL's own --help, then every subcommand's, its
# headings ("Options:") named after the subcommand ("lat options:") so that each becomes a
# section of its own, its description and usage paragraphs of their own.
# The man page is thus the text --help prints, never a copy of it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=completion.bash
. "$here/completion.bash"

tool="${1:?usage: help-all.sh TOOL --help|--version}"
case "${2:-}" in
  # The page's version and copyright; the commit and the libraries are the binary's, not its
  # manual's.
  --version)
    "$tool" --version | grep -v -e "^git commit " -e "^built against "
    exit
    ;;
  --help) ;;
  *)
    echo "usage: help-all.sh TOOL --help|--version" >&2
    exit 2
    ;;
esac
# The tool runs under its bare name: CLI11's "Usage:" lines print argv[0].
name="$(basename "$tool")"
help() { (exec -a "$name" "$tool" "$@" --help); }
help
for sub in $(_dlcnet_subcommands "$tool"); do
  echo
  help "$sub" | awk -v cmd="$name $sub" -v sc="$sub" '
    NR == 1 && !/^Usage:/ { print (index($0, cmd ":") == 1 ? "" : cmd ": ") $0; print ""; next }
    /^Usage:/ { sub(/^Usage:/, "Usage of " sc ":"); print; print ""; next }
    /^[A-Z][a-z]+:$/ { print sc " " tolower($0); next }
    { print }'
done
