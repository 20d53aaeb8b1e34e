# The .deb as a user gets it: cpack builds it from this build tree into a scratch directory,
# its control fields must declare the Debian libraries the tools link, dpkg -x extracts it
# into a scratch root, and from there every tool and subcommand (and the python tools dlc-plot
# and dlc-compare-plot, whose python3, python3-matplotlib and python3-numpy it must depend on)
# answers --version with the project's version, every man page renders and names every option
# --help lists, the bash completion completes from the installed tools, and the scripts, docs
# and licence are in place. Removes everything it made (lib.sh's work directory).
#   package.sh BIN BUILD_DIR VERSION TOOL...
source "$(dirname "$0")/../e2e/lib.sh"
build="$1" version="$2"
shift 2
tools=("$@")
export LC_ALL=C MANWIDTH=400 MANPAGER=cat

# The package.
if cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/cpack" >"$work/cpack.log" 2>&1; then
  ok "cpack"
else
  bad "cpack failed"
  tail -20 "$work/cpack.log"
  finish
  exit 1
fi
deb="$(ls "$work"/cpack/dlcnet_"$version"_*.deb 2>/dev/null | head -1)"
[ -f "$deb" ] && ok "package $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB" || bad "no dlcnet_${version}_*.deb"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "  | Depends: $depends"
echo "  | Recommends: $(dpkg-deb -f "$deb" Recommends)"
for lib in libibverbs1 librdmacm1 libucx0 libstdc++6 libc6 python3 python3-matplotlib python3-numpy; do
  [[ ", $depends," == *", $lib "* || ", $depends," == *", $lib,"* ]] && ok "Depends names $lib" ||
    bad "Depends lacks $lib"
done
[[ "$(dpkg-deb -f "$deb" Recommends)" == *ibverbs-providers* ]] && ok "Recommends ibverbs-providers" ||
  bad "Recommends lacks ibverbs-providers"

# man_renders PAGE: the page renders (into $work/man.txt) with a NAME section; one check.
man_renders() {
  if man -l "$1" >"$work/man.txt" 2>"$work/man.err" && grep -q "^NAME" "$work/man.txt"; then
    ok "man -l $(basename "$1")"
  else
    bad "man -l $(basename "$1"): $(head -3 "$work/man.err")"
    return 1
  fi
}

# Every tool the build made is one the packages install.
for f in "$BIN"/dlc-*; do
  [[ " ${tools[*]} " == *" $(basename "$f") "* ]] || bad "$(basename "$f") is built but not installed"
done

# dlcnet-ns3 (dlc-ns3-predict), made where ns-3 was found: this version of dlcnet and ns-3's
# libraries are its Depends.
ns3="$(ls "$work"/cpack/dlcnet-ns3_"$version"_*.deb 2>/dev/null | head -1)"
if [[ " ${tools[*]} " == *" dlc-ns3-predict "* ]]; then
  [ -f "$ns3" ] && ok "package $(basename "$ns3"), $(du -k "$ns3" | cut -f1) KiB" ||
    bad "dlc-ns3-predict built but no dlcnet-ns3_${version}_*.deb"
  depends="$(dpkg-deb -f "$ns3" Depends 2>/dev/null)"
  echo "  | dlcnet-ns3 Depends: $depends"
  [[ "$depends" == *"dlcnet (= $version)"* ]] && ok "dlcnet-ns3 depends on dlcnet $version" ||
    bad "dlcnet-ns3's Depends lacks dlcnet (= $version)"
  [[ "$depends" == *libns3* ]] && ok "dlcnet-ns3 depends on ns-3's libraries" ||
    bad "dlcnet-ns3's Depends lacks libns3"
  dpkg-deb -c "$deb" | grep -q "dlc-ns3-predict" && bad "dlc-ns3-predict is in the dlcnet package" ||
    ok "dlc-ns3-predict only in dlcnet-ns3"
fi

# Extracted into a scratch root, run from there.
root="$work/root"
dpkg -x "$deb" "$root" && ok "dpkg -x" || bad "dpkg -x"
[ -z "$ns3" ] || { dpkg -x "$ns3" "$root" && ok "dpkg -x dlcnet-ns3" || bad "dpkg -x dlcnet-ns3"; }
export PATH="$root/usr/bin:$PATH"
source "$root/usr/share/bash-completion/completions/${tools[0]}"
for t in "${tools[@]}"; do
  [ -x "$root/usr/bin/$t" ] && [ "$(command -v "$t")" = "$root/usr/bin/$t" ] && ok "$t in usr/bin" ||
    bad "$t: not in the package's usr/bin"
  first="$("$t" --version 2>&1 | head -1)"
  [ "$first" = "$t (dlcnet) $version" ] && ok "$t --version: $first" || bad "$t --version: '$first'"
  "$t" --version | grep -q "^built against UCX .*, libibverbs " && ok "$t --version names UCX, libibverbs" ||
    bad "$t --version: no library versions"
  subs=($(_dlcnet_subcommands "$t"))
  for s in "${subs[@]}"; do
    first="$("$t" "$s" --version 2>&1 | head -1)"
    [ "$first" = "$t (dlcnet) $version" ] && ok "$t $s --version" || bad "$t $s --version: '$first'"
  done

  # The man page renders and names every option of the tool and of each subcommand.
  page="$root/usr/share/man/man1/$t.1.gz"
  man_renders "$page" || continue
  missing=""
  for s in "" "${subs[@]}"; do
    for o in $(_dlcnet_options "$t" $s); do
      grep -qE -- "(^|[ ,])$o([ ,=]|\$)" "$work/man.txt" || missing+=" $s:$o"
    done
  done
  [ -z "$missing" ] && ok "$t's man page names every option of --help" ||
    bad "$t's man page lacks$missing"
  [ -f "$root/usr/share/bash-completion/completions/$t" ] && ok "$t's bash completion installed" ||
    bad "$t: no bash completion"
done

# The completion itself, as bash calls it.
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  _dlcnet
  echo "${COMPREPLY[*]}"
}
[ "$(complete_words dlc-bench "")" = "lat bw fanin ring" ] && ok "completion: dlc-bench subcommands" ||
  bad "completion: dlc-bench subcommands: '$(complete_words dlc-bench "")'"
[[ " $(complete_words dlc-bench lat --rd) " == *" --rdma-cm "* ]] && ok "completion: options" ||
  bad "completion: dlc-bench lat --rd: '$(complete_words dlc-bench lat --rd)'"
[ "$(complete_words dlc-bench ring --collective all)" = "allreduce allgather alltoall" ] &&
  ok "completion: an option's values" ||
  bad "completion: --collective all: '$(complete_words dlc-bench ring --collective all)'"
for t in dlc-plot dlc-compare-plot; do
  [ -f "$root/usr/share/bash-completion/completions/$t" ] && ok "$t's bash completion installed" ||
    bad "$t: no bash completion"
done
[ "$(complete_words dlc-plot "" | awk '{ print $1, $2, $3, $4, $5, $6 }')" = "cdf timeline bw bursts busbw iterations" ] &&
  ok "completion: dlc-plot's plot kinds" ||
  bad "completion: dlc-plot kinds: '$(complete_words dlc-plot "")'"
[ "$(complete_words dlc-plot cdf --ou)" = "--out" ] && ok "completion: dlc-plot's options" ||
  bad "completion: dlc-plot cdf --ou: '$(complete_words dlc-plot cdf --ou)'"
[ "$(complete_words dlc-compare-plot --queue-)" = "--queue-csv --queue-json" ] &&
  ok "completion: dlc-compare-plot's options" ||
  bad "completion: dlc-compare-plot --queue-: '$(complete_words dlc-compare-plot --queue-)'"

# What else a user runs or reads: the python tools' --version (the version cmake wrote beside
# dlc-plot's modules, found from usr/bin) and man pages, as the tools' above.
for t in dlc-plot dlc-compare-plot; do
  first="$("$root/usr/bin/$t" --version 2>&1 | head -1)"
  [ "$first" = "$t (dlcnet) $version" ] && ok "$t --version: $first" || bad "$t --version: '$first'"
  page="$root/usr/share/man/man1/$t.1.gz"
  man_renders "$page" || continue
  opts="$(_dlcnet_options "$t")"
  missing=""
  for o in $opts; do
    grep -qE -- "(^|[ ,])$o([ ,=]|\$)" "$work/man.txt" || missing+=" $o"
  done
  [ -n "$opts" ] && [ -z "$missing" ] && ok "$t's man page names every option of --help" ||
    bad "$t's man page lacks${missing:- (no options read from --help)}"
done
for f in usr/share/dlcnet/scripts/netns-star.sh usr/share/dlcnet/scripts/star-run.sh; do
  [ -x "$root/$f" ] && ok "$f" || bad "$f: missing or not executable"
done
# netns-star.sh sources netns-star-state.sh from its own folder: the installed one runs.
bash "$root/usr/share/dlcnet/scripts/netns-star.sh" --help >/dev/null 2>&1 &&
  ok "the installed netns-star.sh runs (--help)" || bad "the installed netns-star.sh fails to start"
for f in usr/share/doc/dlcnet/README.md usr/share/doc/dlcnet/LICENSE usr/share/doc/dlcnet/copyright \
  usr/share/doc/dlcnet/architecture.md usr/share/dlcnet/examples/lenet5-2w1s; do
  [ -e "$root/$f" ] && ok "$f" || bad "$f: missing"
done
finish
