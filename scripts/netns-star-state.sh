# What `netns-star.sh up` changed, so that `down` undoes exactly that; sourced by netns-star.sh.
#
# Everything lives in $star_dir (/run/dlcnet-star, gone at reboot as the namespaces are):
#   P.state  one record a line, appended before the change it names is made:
#              ns NAME            a namespace up made (or was about to make)
#              cc NAME            the congestion control set in every namespace of the star
#              allowed NAME       up added NAME to the host's tcp_allowed_congestion_control
#              module NAME        up loaded the kernel module NAME for it
#   P.json   the star's description (star_json below), where the tools find it: a rank in
#            namespace P-h<i> reads /run/dlcnet-star/P.json (core/star_description.hpp)
#   .lock    held (flock) while the host's allowed list is read or changed, so that two stars
#            going up or down at once do not lose each other's change.
# shellcheck shell=bash
star_dir=/run/dlcnet-star
allowed_sysctl=/proc/sys/net/ipv4/tcp_allowed_congestion_control

state_file() { echo "$star_dir/$1.state"; }

# state_add PREFIX RECORD...: appends one record (and makes the directory).
state_add() {
  local prefix="$1"
  shift
  mkdir -p "$star_dir"
  echo "$*" >>"$(state_file "$prefix")"
}

# state_get PREFIX KIND: the values of PREFIX's records of KIND, one a line.
state_get() {
  local f
  f="$(state_file "$1")"
  [ -f "$f" ] || return 0
  awk -v k="$2" '$1 == k { print $2 }' "$f"
}

# with_lock CMD...: CMD while holding the lock on the host's allowed list.
with_lock() {
  mkdir -p "$star_dir"
  (
    flock -w 30 9 || die "cannot lock $star_dir/.lock"
    "$@"
  ) 9>"$star_dir/.lock"
}

# allow_cc PREFIX NAME: NAME available (its module loaded if need be) and on the host's allowed
# list, so that a namespace may choose it; each change recorded in PREFIX's state first.
allow_cc() {
  local prefix="$1" cc="$2"
  if ! grep -qw -- "$cc" /proc/sys/net/ipv4/tcp_available_congestion_control; then
    modprobe "tcp_$cc" 2>/dev/null ||
      die "--cc $cc: not in this kernel (modprobe tcp_$cc failed); available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
    state_add "$prefix" module "tcp_$cc"
  fi
  if ! grep -qw -- "$cc" "$allowed_sysctl"; then
    state_add "$prefix" allowed "$cc"
    echo "netns-star: adding $cc to the host's tcp_allowed_congestion_control ($(cat "$allowed_sysctl"))" >&2
    echo "$(cat "$allowed_sysctl") $cc" >"$allowed_sysctl" ||
      die "--cc $cc: cannot add it to $allowed_sysctl"
  fi
}

# other_star_uses PREFIX NAME: the first other star whose state sets congestion control NAME.
other_star_uses() {
  local f
  for f in "$star_dir"/*.state; do
    if [ ! -f "$f" ] || [ "$f" = "$(state_file "$1")" ]; then continue; fi
    if awk -v n="$2" '$1 == "cc" && $2 == n { found = 1 } END { exit !found }' "$f"; then
      basename "$f" .state
      return
    fi
  done
}

# restore_cc PREFIX: undoes PREFIX's changes to the host (allowed list, module), except those
# another star still relies on: those pass to its state, and its down undoes them.
restore_cc() {
  local prefix="$1" cc other list module
  for cc in $(state_get "$prefix" allowed); do
    other="$(other_star_uses "$prefix" "$cc")"
    if [ -n "$other" ]; then
      state_add "$other" allowed "$cc"
      echo "netns-star: $cc stays allowed: star $other uses it" >&2
      continue
    fi
    list="$(tr -s ' \t' '\n' <"$allowed_sysctl" | grep -vx -- "$cc" | grep -v '^$' | tr '\n' ' ')"
    echo "${list% }" >"$allowed_sysctl" || echo "netns-star: cannot restore $allowed_sysctl" >&2
    echo "netns-star: removed $cc from the host's tcp_allowed_congestion_control (now: $(cat "$allowed_sysctl"))"
  done
  for module in $(state_get "$prefix" module); do
    other="$(other_star_uses "$prefix" "${module#tcp_}")"
    if [ -n "$other" ]; then
      state_add "$other" module "$module"
    else
      modprobe -r "$module" 2>/dev/null || echo "netns-star: module $module stays loaded (in use)" >&2
    fi
  done
}

# json_str TEXT: TEXT as a JSON string.
json_str() {
  local s="${1//\\/\\\\}"
  s="${s//\"/\\\"}"
  s="${s//$'\t'/ }"
  printf '"%s"' "$s"
}

# star_json PREFIX HOSTS: the star's description as JSON on stdout, from up's settings (its
# globals) and what the kernel shows of the ports and links.
# shellcheck disable=SC2154  # up's settings: netns-star.sh's globals
star_json() {
  local prefix="$1" hosts="$2" sw="$1-sw" i sep ports="fifo" rmem wmem
  [ "$fair" = host ] && ports="fair between hosts"
  [ "$fair" = flow ] && ports="fair between TCP flows"
  rmem="$(in_ns "$prefix-h0" cat /proc/sys/net/ipv4/tcp_rmem | tr '\t' ' ')"
  wmem="$(in_ns "$prefix-h0" cat /proc/sys/net/ipv4/tcp_wmem | tr '\t' ' ')"
  printf '{\n  "prefix": %s,\n  "switch": %s,\n  "subnet": %s,\n' "$(json_str "$prefix")" \
    "$(json_str "$sw")" "$(json_str "$subnet.0/24")"
  printf '  "congestion_control": %s,\n' "$(json_str "$cc")"
  printf '  "tbf": {"rate": %s, "burst": %s, "limit": %s},\n' "$(json_str "$rate")" \
    "$(json_str "$burst")" "$(json_str "$limit")"
  printf '  "ports": %s,\n  "shaped_ports": %s,\n' "$(json_str "$ports")" \
    "$(json_str "$([ "$all_ports" -eq 1 ] && echo all || echo p0)")"
  printf '  "netem": %s,\n' "$([ -n "$netem" ] && json_str "$netem" || echo null)"
  printf '  "initcwnd": %s,\n' "${initcwnd:-null}"
  printf '  "tcp_rmem": %s,\n  "tcp_wmem": %s,\n' "$(json_str "$rmem")" "$(json_str "$wmem")"
  printf '  "hosts": ['
  sep=""
  for ((i = 0; i < hosts; i++)); do
    printf '%s\n    {"netns": %s, "dev": %s, "address": %s, "port": %s, "port_qdisc": %s}' \
      "$sep" "$(json_str "$prefix-h$i")" "$(json_str "h$i")" "$(json_str "$subnet.$((i + 1))")" \
      "$(json_str "p$i")" "$(json_str "$(tc -n "$sw" qdisc show dev "p$i" | head -1)")"
    sep=","
  done
  printf '\n  ]\n}\n'
}

# write_star_json PREFIX HOSTS: star_json into $star_dir/PREFIX.json (whole or not at all).
write_star_json() {
  local out="$star_dir/$1.json"
  star_json "$1" "$2" >"$out.tmp"
  mv -f "$out.tmp" "$out"
}
