#!/usr/bin/env bash
# help-all.sh TOOL --help|--version: the text help2man turns into TOOL's man page
# (cmake/dlcnet_install.cmake). --help: TOOL's own --help, then every subcommand's, its
# headings ("Options:") named after the subcommand ("lat options:") so that each becomes a
# section of its own. --version: TOOL's. The man page is the text --help prints, never a copy.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=completion.bash
. "$here/completion.bash"

tool="${1:?usage: help-all.sh TOOL --help|--version}"
case "${2:-}" in
  --version) exec "$tool" --version ;;
  --help) ;;
  *)
    echo "usage: help-all.sh TOOL --help|--version" >&2
    exit 2
    ;;
esac
"$tool" --help
for sub in $(_dlcnet_subcommands "$tool"); do
  echo
  "$tool" "$sub" --help | sed -E "s/^([A-Z][a-z]+):\$/$sub \\L\\1:/; s/^Usage:/Usage of $sub:/"
done
