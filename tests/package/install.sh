# The README's "Install" section as a user follows it, on this machine:
#   1. the build without tests (-DDLCNET_BUILD_TESTS=OFF, not unity) compiles, in BUILD-notests
#      beside this build and with its compiler flags (and its compiler launcher: with ccache
#      the files compiled for BUILD are not compiled again);
#   2. `cmake --install` into a scratch prefix: every tool answers --version from there, has
#      its man page and bash completion, and runs one real command on the installed example;
#   3. `apt-get install ./dlcnet_*.deb` on the machine (skipped where a dlcnet package is
#      already installed: it is not replaced), the same checks from /usr, then removal.
#   install.sh BIN BUILD_DIR VERSION TOOL...
source "$(dirname "$0")/../e2e/lib.sh"
build="$1" version="$2"
shift 2
tools=("$@" dlc-plot dlc-compare-plot)
repo="$(cd "$(dirname "$0")/../.." && pwd)"
notests="$build-notests"
export LC_ALL=C

# 1. The build without tests.
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
t0=$SECONDS
if cmake -S "$repo" -B "$notests" -DDLCNET_BUILD_TESTS=OFF -DCMAKE_UNITY_BUILD=OFF \
  "-DCMAKE_BUILD_TYPE=$(cache CMAKE_BUILD_TYPE)" \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$(cache CMAKE_CXX_FLAGS_RELWITHDEBINFO)" \
  "-DCMAKE_CXX_COMPILER_LAUNCHER=$(cache CMAKE_CXX_COMPILER_LAUNCHER)" >"$work/cfg.log" 2>&1 &&
  cmake --build "$notests" -j "$(nproc)" >"$work/build.log" 2>&1; then
  ok "-DDLCNET_BUILD_TESTS=OFF builds ($((SECONDS - t0)) s)"
else
  bad "-DDLCNET_BUILD_TESTS=OFF does not build"
  tail -30 "$work/cfg.log" "$work/build.log" | sed 's/^/  | /'
  finish
  exit 1
fi
[ ! -e "$notests/tests" ] && ok "no test built without tests" || bad "$notests/tests exists"

# check_installed ROOT PREFIX NAME: the tools of an installation at ROOT/PREFIX (ROOT empty for
# the machine's own /usr), each run from there.
check_installed() {
  local root="$1" prefix="$2" name="$3" t first
  local bin="$root$prefix/bin" share="$root$prefix/share"
  for t in "${tools[@]}"; do
    first="$("$bin/$t" --version 2>&1 | head -1)"
    [ "$first" = "$t (dlcnet) $version" ] && ok "$name: $t --version" ||
      bad "$name: $t --version: '$first'"
    [ -s "$share/man/man1/$t.1.gz" ] && man -l "$share/man/man1/$t.1.gz" 2>/dev/null | grep -q "^NAME" &&
      ok "$name: $t's man page" || bad "$name: $t: no man page"
    [ -s "$share/bash-completion/completions/$t" ] && ok "$name: $t's completion" ||
      bad "$name: $t: no completion"
  done
  local job="$share/dlcnet/examples/lenet5-2w1s" out="$work/$name"
  mkdir -p "$out"
  check "$name: dlc-trace stats on the installed example" "$bin/dlc-trace" stats "$job"
  grep -q "workers" "$work/out" || bad "$name: dlc-trace stats printed no statistics"
  check "$name: dlc-bench lat over UCX in one process" timeout 120 "$bin/dlc-bench" lat --loopback \
    --transport ucx -n 200 --json "$out/lat.json"
  check "$name: dlc-replay of the installed example over UCX" timeout 300 "$bin/dlc-replay" "$job" \
    --spawn --transport ucx --iterations 1 --json "$out/r.json" --export-flows "$out/flows.txt"
  grep -q "^# OK: " "$work/out" || bad "$name: the replay has no OK line"
  echo '{"link_rate_Bps": 1e9, "base_latency_s": 5e-6}' >"$out/c.json"
  check "$name: dlc-compare predict on the replay's flows" "$bin/dlc-compare" predict \
    "$out/flows.txt" --calibration "$out/c.json" --out "$out/fct.txt"
  check "$name: dlc-compare against the prediction" "$bin/dlc-compare" "$out/flows.txt.map" \
    "$out/fct.txt" --calibration "$out/c.json" --csv "$out/cmp.csv" --json "$out/cmp.json"
  check "$name: dlc-compare-plot draws it" "$bin/dlc-compare-plot" --csv "$out/cmp.csv" \
    --json "$out/cmp.json" --out "$out/plots"
  check "$name: dlc-plot draws the replay" "$bin/dlc-plot" iterations "$out/r.json" --out "$out/it.png"
  if [ -x "$bin/dlc-ns3-predict" ]; then
    # A replay over shared memory ran on no star: refused (exit 3), the run's JSON named.
    "$bin/dlc-ns3-predict" "$out/flows.txt" --calibration "$out/c.json" --run "$out/r.json" \
      --out "$out/ns3.txt" >"$work/out" 2>&1
    [ $? -eq 3 ] && grep -q "r.json" "$work/out" && ok "$name: dlc-ns3-predict reads the run, refuses a run on no star" ||
      bad "$name: dlc-ns3-predict on a run on no star: $(head -3 "$work/out")"
  fi
  [ -n "$(ls "$out/plots"/*.png 2>/dev/null)" ] && [ -s "$out/it.png" ] && ok "$name: PNGs written" ||
    bad "$name: no PNG"
}

# 2. cmake --install into a scratch prefix.
if cmake --install "$notests" --prefix "$work/prefix" >"$work/install.log" 2>&1; then
  ok "cmake --install --prefix"
  check_installed "$work" /prefix "cmake --install"
else
  bad "cmake --install failed"
  tail -20 "$work/install.log" | sed 's/^/  | /'
fi

# 3. The .deb, installed on this machine and removed.
if dpkg-query -W -f='${Status}' dlcnet 2>/dev/null | grep -q "install ok installed"; then
  echo "a dlcnet package is installed on this machine: not replaced; the .deb is not installed"
elif [ "$(id -u)" -ne 0 ]; then
  echo "not root: the .deb is not installed"
else
  if (cd "$notests" && cpack -G DEB -B "$work/cpack") >"$work/cpack.log" 2>&1; then
    # dlcnet, and dlcnet-ns3 where dlc-ns3-predict was built.
    debs=("$(ls "$work"/cpack/dlcnet_"$version"_*.deb | head -1)")
    pkgs=(dlcnet)
    ns3="$(ls "$work"/cpack/dlcnet-ns3_"$version"_*.deb 2>/dev/null | head -1)"
    [ -n "$ns3" ] && debs+=("$ns3") && pkgs+=(dlcnet-ns3)
    ok "cpack: $(for d in "${debs[@]}"; do basename "$d"; done | tr '\n' ' ')"
    # Removed on any exit from here on, whatever happens in between.
    trap 'DEBIAN_FRONTEND=noninteractive apt-get remove -y -q --purge ${pkgs[*]} >/dev/null 2>&1; rm -rf "$work"' EXIT
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${debs[@]}" \
      >"$work/apt.log" 2>&1; then
      ok "apt-get install ${pkgs[*]}"
      check_installed "" /usr "the .deb"
      DEBIAN_FRONTEND=noninteractive apt-get remove -y -q --purge "${pkgs[@]}" >"$work/rm.log" 2>&1 &&
        [ ! -e /usr/bin/dlc-bench ] && [ ! -e /usr/bin/dlc-ns3-predict ] && [ ! -e /usr/share/dlcnet ] &&
        ok "apt-get remove ${pkgs[*]}" ||
        bad "apt-get remove left files: $(ls -d /usr/bin/dlc-* /usr/share/dlcnet 2>/dev/null)"
    else
      bad "apt-get install failed"
      tail -20 "$work/apt.log" | sed 's/^/  | /'
    fi
  else
    bad "cpack failed"
    tail -20 "$work/cpack.log" | sed 's/^/  | /'
  fi
fi
finish
