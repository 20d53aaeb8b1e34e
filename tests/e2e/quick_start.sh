# The README's "Quick start on two real hosts", as two processes on one machine: a bare server
# (`dlc-bench lat --op write`, `dlc-bench bw`) and a client that names it and gives the sizes
# (`-a`): the server adopts the client's sizes and counts, and both report every size. With
# `--transport auto` (the default), as written: UCX on a host without an RDMA device (`ucx`),
# verbs where one exists (`verbs`, label rdma: in the Soft-RoCE guest). The client adds only
# -n (the count: the server adopts it too), to keep the 8 MiB end of the sweep short.
#   quick_start.sh BIN ucx|verbs
source "$(dirname "$0")/lib.sh"
mode="$1"
if [ "$mode" = verbs ]; then
  has_rdma_device || { echo "no RDMA device: skipped"; exit 77; }
  want=verbs
else
  has_rdma_device && { echo "an RDMA device: auto picks verbs (the verbs case covers it)"; exit 77; }
  want=ucx
fi
B="$BIN/dlc-bench"
addr="${DLCNET_GUEST_ADDR:-127.0.0.1}"

# server CMD...: starts the bare server in the background (its output in $work/srv).
server() {
  "$B" "$@" --timeout 120 >"$work/srv" 2>&1 &
  srv=$!
  sleep 0.5
}
served() {
  if wait $srv; then ok "server $1 exited 0"; else
    bad "server $1: exit $?"
    sed 's/^/  | /' "$work/srv" | tail -5
  fi
}

# dlc-bench lat --op write (server) / dlc-bench lat --op write A (client)
server lat --op write
check "client: lat --op write $addr" "$B" lat --op write "$addr" --timeout 120 --json "$work/lat.json"
served "lat --op write"
json_assert "$work/lat.json" "d['context']['transport_selection']['chosen'] == '$want'" \
  "d['test']['kind'] == 'lat' and d['test']['op'] == 'write'" "d['results'][0]['latency_s']['count'] > 0"

# dlc-bench bw -a (server) / dlc-bench bw -a A --json bw.json --records bw.csv (client)
server bw -a
check "client: bw -a $addr --json --records" "$B" bw -a "$addr" -n 20 --timeout 120 \
  --json "$work/bw.json" --records "$work/bw.csv"
served "bw -a"
python3 - "$work/bw.json" "$work/bw.csv" "$work/srv" "$want" >"$work/py" 2>&1 <<'PY'
import csv, json, re, sys
d = json.load(open(sys.argv[1]))
sizes = [r["bytes"] for r in d["results"]]
want = [2 ** k for k in range(1, 24)]  # -a: 2 B to 8 MiB, as perftest
print(("ok: " if sizes == want else "FAIL: ") + f"client: every size of -a ({len(sizes)} sizes)")
print(("ok: " if d["context"]["transport_selection"]["chosen"] == sys.argv[4] else "FAIL: ") +
      "transport")
print(("ok: " if all(r["iterations"] == 20 for r in d["results"]) else "FAIL: ") + "-n 20 at every size")
rows = list(csv.DictReader(open(sys.argv[2])))
per = {}
for r in rows:
    per[int(r["bytes"])] = per.get(int(r["bytes"]), 0) + 1
print(("ok: " if sorted(per) == want and all(c == 20 for c in per.values()) else "FAIL: ") +
      f"records: 20 messages of each size ({len(rows)} rows)")
# The server writes no JSON of its own (the client reports). That it adopted the client's 23
# sizes and count shows as the client's complete sweep above plus the server's exit 0 and its
# "client finished".
srv = open(sys.argv[3]).read()
print(("ok: " if "client finished" in srv else "FAIL: ") + "server: 'client finished'")
PY
count_results "$work/py"
finish
