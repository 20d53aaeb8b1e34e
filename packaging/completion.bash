# Bash completion for the dlcnet tools. It reads the tool's own --help (and the subcommand's)
# at every completion, so it follows the options as they are defined. Installed once per tool
# as share/bash-completion/completions/<tool>; packaging/help-all.sh uses its readers too.
# CLI11's help lists "  -s,--size TEXT  description": one space before a value's type, two or
# more before the description; "{a,b}" after the type lists the accepted values. The python
# tools' argparse help lists "  -o PLOT.png, --out PLOT.png  description" the same way, and
# dlc-plot's optional first word, the plot kind, under "KIND (...):" as "  cdf   description".

# _dlcnet_subcommands TOOL: the subcommands TOOL's --help lists, one a line.
_dlcnet_subcommands() {
  "$1" --help 2>/dev/null |
    awk '/^(Subcommands:|KIND .*:)$/ { on = 1; next } on && /^$/ { on = 0 }
         on && /^  [^ -]/ { print $1 }'
}

# _dlcnet_invocation: the part of a help line before its description (two spaces apart),
# e.g. "-o PLOT.png, --out PLOT.png" or "-s,--size TEXT".
# shellcheck disable=SC2016  # awk's $0, not the shell's
_dlcnet_invocation='{ line = substr($0, 3); sub(/  .*/, "", line) }'

# _dlcnet_kind_optional TOOL: whether the first word may be a file instead (dlc-plot [KIND]).
_dlcnet_kind_optional() {
  "$1" --help 2>/dev/null | head -1 | grep -q '\[KIND\]'
}

# _dlcnet_options TOOL [SUB]: every option name of TOOL [SUB], one a line.
_dlcnet_options() {
  "$@" --help 2>/dev/null |
    awk "/^  -/ $_dlcnet_invocation"' /^  -/ {
      n = split(line, words, /[ ,]+/)
      for (i = 1; i <= n; i++) if (words[i] ~ /^-/) print words[i]
    }'
}

# _dlcnet_option_value OPTION TOOL [SUB]: exits 1 when OPTION is a flag or unknown; else prints
# the values it accepts (nothing when any value goes).
_dlcnet_option_value() {
  local opt="$1"
  shift
  "$@" --help 2>/dev/null | awk -v opt="$opt" "/^  -/ $_dlcnet_invocation"'
    /^  -/ {
      n = split(line, words, /[ ,]+/)
      takes = 0
      for (i = 1; i <= n; i++) if (words[i] !~ /^-/ && words[i] != "") takes = 1
      for (i = 1; i <= n; i++) if (words[i] == opt) { found = line; value = takes }
    }
    END {
      if (found == "" || !value) exit 1
      if (match(found, /\{[^}]*\}/)) {
        values = substr(found, RSTART + 1, RLENGTH - 2)
        gsub(",", " ", values)
        print values
      }
    }'
}

_dlcnet() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" tool="${COMP_WORDS[0]}" sub="" subs values w
  [ "$COMP_CWORD" -gt 0 ] && prev="${COMP_WORDS[COMP_CWORD - 1]}"
  subs="$(_dlcnet_subcommands "$tool")"
  if [ "$COMP_CWORD" -gt 1 ]; then
    for w in $subs; do [ "${COMP_WORDS[1]}" = "$w" ] && sub="$w"; done
  fi
  local -a cmd=("$tool")
  [ -n "$sub" ] && cmd+=("$sub")
  COMPREPLY=()
  if [[ "$prev" == -* ]] && values="$(_dlcnet_option_value "$prev" "${cmd[@]}")"; then
    if [ -n "$values" ]; then
      mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
  elif [ "$COMP_CWORD" -eq 1 ] && [ -n "$subs" ] && [[ "$cur" != -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
    if _dlcnet_kind_optional "$tool"; then
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
    fi
  elif [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_dlcnet_options "${cmd[@]}")" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}

# Every tool of the project (a new tool adds its name here).
complete -o filenames -F _dlcnet dlc-bench dlc-trace dlc-replay dlc-compare dlc-plot dlc-compare-plot
