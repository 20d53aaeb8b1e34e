# dlc-bench ring end to end on this host (--spawn, mpirun, srun's environment; UCX over tcp and
# shared memory): all-reduce at 2, 3 and 4 ranks over both, reduce, gather, scatter, sendrecv
# and barrier at 2, 3 and 4 ranks over shared memory, the other collectives at 3 ranks, with
# sizes of fewer elements than ranks (4 B; reduce-scatter and all-gather with --op write too)
# and counts N does not divide (also at 2 and 4 ranks), and 1 MiB, every element checked;
# --op write; the records and JSON counted; a deliberately corrupted input that must give
# #wrong > 0 and a non-zero exit; bad input.
source "$(dirname "$0")/../e2e/lib.sh"
B="$BIN"
ucx() { echo --transport ucx --ucx-tls "$1" --timeout 60; }
small=(-n 3 -w 1)

# All-reduce: every size of a sweep from 4 B to 1 MiB, 2, 3 and 4 ranks over tcp and over
# shared memory; checked, then the JSON read back.
for spec in "2 tcp,self" "3 tcp,self" "4 tcp,self" "2 sm,self" "3 sm,self" "4 sm,self"; do
  set -- $spec
  n=$1 tls=$2
  check "allreduce, $n ranks, $tls, 4 B to 1 MiB" "$B" ring --spawn --ranks "$n" $(ucx "$tls") \
    -b 4 -e 1M -f 4 "${small[@]}" --json "$work/ar$n.json" --records "$work/ar$n-%r.csv"
  grep -q "Out of bounds values : 0 OK" "$work/out" && ok "console: 0 wrong, OK" ||
    bad "console footer ($n ranks)"
  json_assert "$work/ar$n.json" \
    "d['schema'] == 'dlcnet.ring/1' and d['ranks'] == $n and d['collective'] == 'allreduce'" \
    "[s['size_bytes'] for s in d['sizes']] == [4 * 4**k for k in range(10)]" \
    "d['wrong_total'] == 0 and all(s['wrong'] == 0 and s['checked_iterations'] == $n * 4 for s in d['sizes'])" \
    "all(s['iterations'] == 3 and s['time_s'] > 0 for s in d['sizes'])" \
    "all(abs(s['busbw_GBps'] - s['algbw_GBps'] * 2 * ($n - 1) / $n) < 1e-9 * (1 + s['busbw_GBps']) for s in d['sizes'])" \
    "all(abs(s['algbw_GBps'] - s['size_bytes'] / s['time_s'] / 1e9) < 1e-6 * s['algbw_GBps'] + 1e-12 for s in d['sizes'])" \
    "len(d['sizes'][-1]['steps']) == 2 * ($n - 1) and all(st['latency_s']['count'] == $n * 3 for st in d['sizes'][-1]['steps'])" \
    "all(st['slowest_link']['dst'] == (st['slowest_link']['src'] + 1) % $n for st in d['sizes'][-1]['steps'])" \
    "len(d['clock']) == $n and 'run_s' in d['phases_s'] and d['context']['world_size'] == $n" \
    "d['setup']['ranks'] == $n and d['setup']['setup_s'] >= d['setup']['connect_s'] > 0" \
    "sum(1 for r in rows('$work/ar$n-1.csv') if abs(int(r['bytes']) - 1048576 / $n) < 4 and r['op'] == 'send') == 3 * 2 * ($n - 1)" \
    "all(int(r['arrival_ns']) > 0 for r in rows('$work/ar$n-0.csv') if r['op'] == 'recv')"
done

# Iterations back to back, 50 of them, every element checked: all-reduce runs every iteration
# in one set of buffers (patterns/ring/allreduce.cpp), the others alternate two; a collective
# whose next iteration's data could land on this one's (as all-gather's and reduce-scatter's
# would in one set: millions wrong) fails here.
for c in allreduce reducescatter allgather; do
  for op in send write; do
    check "$c, 3 ranks, sm, --op $op, 50 iterations" "$B" ring --spawn --ranks 3 \
      $(ucx sm,self) --collective "$c" --op "$op" -b 4K -e 1M -f 16 -n 50 -w 2 --segment 64K
    grep -q "Out of bounds values : 0 OK" "$work/out" && ok "$c, --op $op: 0 wrong" ||
      bad "$c, --op $op: $(grep 'Out of bounds' "$work/out")"
  done
done

# Every collective at 3 ranks with counts 3 does not divide: 1001 elements, and 1 element.
for c in allreduce reducescatter allgather alltoall; do
  for size in 4004 4; do
    check "$c, 3 ranks, $size B" "$B" ring --spawn --ranks 3 $(ucx tcp,self) --collective "$c" \
      -s "$size" "${small[@]}" --json "$work/$c-$size.json"
    json_assert "$work/$c-$size.json" "d['wrong_total'] == 0 and d['collective'] == '$c'" \
      "d['sizes'][0]['count'] == ($size // 4 if '$c' != 'alltoall' else $size // 4 // 3 * 3)"
  done
done

# --op write with chunks of no element (1 and 2 elements over 3 ranks), 50 iterations back to
# back: an empty chunk's message is its notification alone, which keeps every rank within an
# iteration of its successor; without it writes ran ahead into unchecked buffers (issue 29).
for c in reducescatter allgather; do
  check "$c --op write, 3 ranks, 4 and 8 B, 50 iterations" "$B" ring --spawn --ranks 3 \
    $(ucx sm,self) --collective "$c" --op write -b 4 -e 8 -f 2 -n 50 -w 2 --json "$work/$c-w.json"
  json_assert "$work/$c-w.json" "d['wrong_total'] == 0 and d['op'] == 'write'" \
    "[s['count'] for s in d['sizes']] == [1, 2]"
done

# Ranks started with other options: the rank, the option and both values named (issue 28).
port=$((23000 + RANDOM % 2000))
"$B" ring --rank 1 --world-size 2 --coordinator 127.0.0.1:$port $(ucx sm,self) -s 4K -n 5 -q \
  >/dev/null 2>&1 &
check_fails "ranks with different -n" "rank 1 runs another collective .*-n: 5 on rank 1, 3 here" \
  "$B" ring --rank 0 --world-size 2 --coordinator 127.0.0.1:$port $(ucx sm,self) -s 4K -n 3 -q
wait

# Broadcast (a chain from --root along the ring, pipelined by --segment): every element of 50
# iterations on every rank, from a root that is not rank 0, 1 element and 1001; the root's
# perturbed input found on every rank; its refusals.
check "broadcast from root 2, 4 ranks, sm, 50 iterations" "$B" ring --spawn --ranks 4 \
  $(ucx sm,self) --collective broadcast --root 2 -b 4 -e 1M -f 16 -n 50 -w 2 --segment 64K \
  --json "$work/bc.json"
json_assert "$work/bc.json" "d['wrong_total'] == 0 and d['collective'] == 'broadcast'" \
  "d['root'] == 2 and d['busbw_factor'] == 1.0 and len(d['sizes']) == 5"
check "broadcast from root 1, 3 ranks, tcp, 1001 floats" "$B" ring --spawn --ranks 3 \
  $(ucx tcp,self) --collective broadcast --root 1 -s 4004 "${small[@]}" --json "$work/bc3.json"
json_assert "$work/bc3.json" "d['wrong_total'] == 0 and d['sizes'][0]['count'] == 1001"
"$B" ring --spawn --ranks 3 $(ucx sm,self) --collective broadcast --root 1 -s 64K -n 3 -w 0 \
  --test-corrupt-rank 1 >"$work/bcx.out" 2>&1 && bad "broadcast: a perturbed root exited 0" ||
  { grep -q "#wrong\|FAILED" "$work/bcx.out" && grep -q "Out of bounds values : 9 FAILED" \
    "$work/bcx.out" && ok "broadcast: the root's perturbed element wrong on all 3 ranks, 3 runs" ||
    bad "broadcast corrupt: $(grep 'Out of bounds' "$work/bcx.out")"; }
# --in-place (MPI_Bcast's semantics): the root sends from its input and checks it there; every
# element of 50 iterations on every rank (the root refills its input between them, after its
# sends completed); the perturbed root found on all ranks; only broadcast takes it.
check "broadcast --in-place from root 2, 4 ranks, sm, 50 iterations" "$B" ring --spawn --ranks 4 \
  $(ucx sm,self) --collective broadcast --root 2 -b 4 -e 1M -f 16 -n 50 -w 2 --segment 64K \
  --in-place --json "$work/bci.json"
json_assert "$work/bci.json" "d['wrong_total'] == 0 and d['in_place'] and len(d['sizes']) == 5"
check "broadcast --in-place from root 1, 3 ranks, tcp, 4 MiB" "$B" ring --spawn --ranks 3 \
  $(ucx tcp,self) --collective broadcast --root 1 -s 4M -n 10 -w 1 --in-place
"$B" ring --spawn --ranks 3 $(ucx sm,self) --collective broadcast --root 1 -s 64K -n 3 -w 0 \
  --in-place --test-corrupt-rank 1 >"$work/bcix.out" 2>&1 &&
  bad "broadcast --in-place: a perturbed root exited 0" ||
  { grep -q "Out of bounds values : 9 FAILED" "$work/bcix.out" &&
    ok "broadcast --in-place: the root's perturbed element wrong on all 3 ranks, 3 runs" ||
    bad "broadcast --in-place corrupt: $(grep 'Out of bounds' "$work/bcix.out")"; }
check_usage "--in-place with reduce" "--in-place: reduce runs out of place only" \
  "$B" ring --spawn --ranks 2 --collective reduce --in-place
check_usage "broadcast --op write" "--op write: broadcast runs over sends only" \
  "$B" ring --spawn --ranks 2 --collective broadcast --op write
check_usage "--root without a rooted collective" "--root: allreduce has no root" \
  "$B" ring --spawn --ranks 2 --root 1
check_fails "--root outside the world" "--root 3: the world has ranks 0 to 2" \
  "$B" ring --spawn --ranks 3 --collective broadcast --root 3 $(ucx sm,self)

# Reduce, gather, scatter, sendrecv and barrier (issue 29 §3): at 2, 3 and 4 ranks over shared
# memory, from the last rank as root, sizes of 1 to 1001 floats (251, 501, 751: none divisible
# by 2, 3 or 4 throughout), every element checked; nccl-tests' factor and the steps (reduce, a
# chain, gather, scatter: N-1; sendrecv 1; barrier ceil(log2 N)).
declare -A factor=([reduce]=1 [gather]=-1 [scatter]=-1 [sendrecv]=1)
declare -A steps=([reduce]=1 [gather]=1 [scatter]=1 [sendrecv]=0)
for c in reduce gather scatter sendrecv; do
  for n in 2 3 4; do
    root=()
    [ "$c" = sendrecv ] || root=(--root $((n - 1)))
    check "$c, $n ranks, ${root[*]:-no root}, sm, 4 B to 4004 B" "$B" ring --spawn --ranks "$n" \
      $(ucx sm,self) --collective "$c" "${root[@]}" -b 4 -e 4004 -i 1000 "${small[@]}" \
      --json "$work/$c$n.json"
    f=${factor[$c]} k=${steps[$c]}
    json_assert "$work/$c$n.json" "d['wrong_total'] == 0 and d['collective'] == '$c'" \
      "[s['count'] for s in d['sizes']] == [1, 251, 501, 751, 1001]" \
      "all(s['checked_iterations'] == $n * 4 for s in d['sizes'])" \
      "d['busbw_factor'] == ($f if $f > 0 else ($n - 1) / $n)" \
      "len(d['sizes'][-1]['steps']) == ($k * ($n - 1) if $k else 1)"
  done
done
# Barrier at 2 and 3 ranks over sends, at 4 with --op write and 50 iterations back to back (the
# others refuse --op write); reduce's chain pipelined by --segment from root 1, its head rank 0
# (no staging of its own), 50 iterations.
for n in 2 3 4; do
  op=(--op send "${small[@]}")
  [ "$n" = 4 ] && op=(--op write -n 50 -w 2)
  check "barrier, $n ranks, sm, ${op[*]}" "$B" ring --spawn --ranks "$n" $(ucx sm,self) \
    --collective barrier "${op[@]}" --json "$work/barrier$n.json"
  json_assert "$work/barrier$n.json" "d['wrong_total'] == 0 and len(d['sizes']) == 1" \
    "d['sizes'][0]['size_bytes'] == 0 and d['sizes'][0]['busbw_GBps'] == 0" \
    "len(d['sizes'][0]['steps']) == $((n > 2 ? 2 : 1))"
done
check "reduce --segment 64K from root 1, 2 ranks, sm, 50 iterations" "$B" ring --spawn --ranks 2 \
  $(ucx sm,self) --collective reduce --root 1 -b 4K -e 1M -f 16 -n 50 -w 2 --segment 64K \
  --json "$work/rs.json"
json_assert "$work/rs.json" "d['wrong_total'] == 0 and len(d['sizes']) == 3"
# Perturbed: 3 iterations checked; the element is wrong once per iteration where it lands (the
# root's sum, the root's gathered vector, the scattered chunk of the rank after the root, the
# successor's received vector), the barrier's token at ranks 2 (round 0) and 0 (round 1).
for spec in "reduce 3 1 2 3" "gather 3 2 0 3" "scatter 3 1 1 3" "sendrecv 3 - 0 3" "barrier 3 - 1 6"; do
  set -- $spec
  root=()
  [ "$3" = - ] || root=(--root "$3")
  size=(-s 64K)
  [ "$1" = barrier ] && size=()
  check_fails "a corrupted $1 exits non-zero" "ring" "$B" ring --spawn --ranks "$2" \
    $(ucx sm,self) --collective "$1" "${root[@]}" "${size[@]}" -n 3 -w 0 --test-corrupt-rank "$4"
  grep -q "Out of bounds values : $5 FAILED" "$work/out" && ok "$1: $5 wrong, FAILED" ||
    bad "$1 corrupted: $(grep 'Out of bounds' "$work/out")"
done
for c in reduce gather; do
  check_usage "$c --op write" "--op write: $c runs over sends only" \
    "$B" ring --spawn --ranks 2 --collective "$c" --op write
done
check_usage "barrier with a size" "-b, -e, -f, -i, -s: barrier moves no payload" \
  "$B" ring --spawn --ranks 2 --collective barrier -s 4K
check_usage "sendrecv --root" "--root: sendrecv has no root" \
  "$B" ring --spawn --ranks 2 --collective sendrecv --root 1
check_fails "reduce --root outside the world" "--root 4: the world has ranks 0 to 3" \
  "$B" ring --spawn --ranks 4 --collective reduce --root 4 $(ucx sm,self)

# An odd size (1001 floats) at 2 and 4 ranks, over shared memory.
for n in 2 4; do
  check "allreduce, $n ranks, 4004 B, shared memory" "$B" ring --spawn --ranks "$n" \
    $(ucx sm,self) -s 4004 "${small[@]}" --json "$work/odd$n.json"
  json_assert "$work/odd$n.json" "d['wrong_total'] == 0 and d['sizes'][0]['count'] == 1001"
done

# --op write: into the peer's buffer, then a notification; checked.
check "allreduce --op write, 3 ranks, tcp" "$B" ring --spawn --ranks 3 $(ucx tcp,self) \
  --op write -b 4 -e 256K -f 16 "${small[@]}" --json "$work/w.json" --records "$work/w-%r.csv"
json_assert "$work/w.json" "d['op'] == 'write' and d['wrong_total'] == 0 and len(d['sizes']) == 5" \
  "any(r['op'] == 'write' and int(r['complete_ns']) > 0 for r in rows('$work/w-2.csv'))"
check "alltoall --op write, 4 ranks, shared memory" "$B" ring --spawn --ranks 4 $(ucx sm,self) \
  --op write --collective alltoall -s 1M "${small[@]}" --json "$work/w4.json"
json_assert "$work/w4.json" "d['wrong_total'] == 0 and len(d['sizes'][0]['steps']) == 3"

# --segment: every message cut into 16 KiB segments pipelined through the steps; one record per
# segment.
check "allreduce --segment 16K, 3 ranks" "$B" ring --spawn --ranks 3 $(ucx tcp,self) -s 1M \
  --segment 16K "${small[@]}" --json "$work/seg.json" --records "$work/seg-%r.csv" \
  --export-flows "$work/seg.txt"
# --export-flows: one flow.txt line per segment of every step (4), rank and measured iteration.
json_assert "$work/seg.json" \
  "int(open('$work/seg.txt').readline()) == 4 * d['sizes'][0]['steps'][0]['latency_s']['count']" \
  "max(int(l.split()[4]) for l in open('$work/seg.txt.map') if l[0] != '#') == 16384"
json_assert "$work/seg.json" "d['wrong_total'] == 0 and d['segment_bytes'] == 16384" \
  "d['sizes'][0]['steps'][0]['latency_s']['count'] == 3 * 3 * 22" \
  "sum(1 for r in rows('$work/seg-1.csv') if r['op'] == 'send') == 3 * 4 * 22" \
  "max(int(r['bytes']) for r in rows('$work/seg-1.csv')) == 16384"
check "alltoall --segment 10000 --op write, 4 ranks" "$B" ring --spawn --ranks 4 $(ucx sm,self) \
  --collective alltoall --op write -s 1M --segment 10000 "${small[@]}" --json "$work/seg4.json"
json_assert "$work/seg4.json" "d['wrong_total'] == 0"

# The check can fail: rank 1 adds 1 to one element of its input every iteration. All-reduce:
# every rank's result holds that element, 4 iterations checked (1 warm-up + 3).
check_fails "a corrupted all-reduce exits non-zero" "ring" "$B" ring --spawn --ranks 3 \
  $(ucx tcp,self) -s 1M "${small[@]}" --test-corrupt-rank 1 --json "$work/bad.json"
grep -Eq "Out of bounds values : 12 FAILED" "$work/out" && ok "console: 12 wrong, FAILED" ||
  bad "console: $(grep -E 'Out of bounds' "$work/out")"
json_assert "$work/bad.json" "d['wrong_total'] == 3 * 4 and d['sizes'][0]['wrong'] == 12"
check_fails "a corrupted all-to-all exits non-zero" "ring" "$B" ring --spawn --ranks 4 \
  $(ucx tcp,self) --collective alltoall -s 64K "${small[@]}" --test-corrupt-rank 3
grep -Eq "Out of bounds values : [1-9][0-9]* FAILED" "$work/out" && ok "all-to-all: wrong > 0" ||
  bad "all-to-all corrupted: $(grep -E 'Out of bounds' "$work/out")"

# Launched by Open MPI's mpirun: ranks from its environment.
if command -v mpirun >/dev/null; then
  check "allreduce under mpirun, 3 ranks" mpirun --allow-run-as-root --oversubscribe \
    --bind-to none -np 3 "$B" ring $(ucx tcp,self) -b 4 -e 64K -f 64 "${small[@]}" \
    --json "$work/mpi.json"
  json_assert "$work/mpi.json" "d['wrong_total'] == 0 and d['ranks'] == 3" \
    "d['context']['rank_source'] == 'open-mpi'"
else
  echo "no mpirun: the mpirun case is skipped"
fi

# Launched by Slurm's srun: ranks from its environment (SLURM_PROCID, SLURM_NTASKS, the
# coordinator on the first host of SLURM_STEP_NODELIST), set here as srun sets them.
slurm_rank() {
  SLURM_PROCID=$1 SLURM_NTASKS=2 SLURM_JOB_ID=$$ SLURM_STEP_ID=0 SLURM_STEP_NODELIST=127.0.0.1 \
    "$B" ring $(ucx tcp,self) -b 4 -e 64K -f 64 "${small[@]}" -q "${@:2}"
}
slurm_rank 1 >"$work/slurm1.out" 2>&1 &
slurm1=$!
check "allreduce under srun's environment, 2 ranks" slurm_rank 0 --json "$work/slurm.json"
wait "$slurm1" && ok "rank 1 under srun's environment exits 0" || bad "rank 1: $(cat "$work/slurm1.out")"
json_assert "$work/slurm.json" "d['wrong_total'] == 0 and d['ranks'] == 2" \
  "d['context']['rank_source'] == 'slurm'"

# -c 0: no check, pure timing.
check "allreduce -c 0" "$B" ring --spawn --ranks 2 $(ucx sm,self) -s 64K -c 0 "${small[@]}" \
  --json "$work/c0.json"
json_assert "$work/c0.json" "d['check'] is False and d['sizes'][0]['wrong'] is None"

# Bad input names what is wrong.
check_fails "-b above -e" "-b 1024 exceeds -e 16" "$B" ring --spawn --ranks 2 -b 1K -e 16
check_fails "-f 1" "-f: a factor above 1" "$B" ring --spawn --ranks 2 -b 4 -e 16 -f 1
check_fails "-s with -b" "-s gives one size" "$B" ring --spawn --ranks 2 -s 4 -b 8
check_fails "one rank" "at least 2" "$B" ring --spawn --ranks 1
check_fails "--ranks against the world" "--ranks 3 but the world has 2" \
  "$B" ring --ranks 3 --rank 0 --world-size 2 --coordinator 127.0.0.1:1
check_fails "unknown collective" "collective" "$B" ring --spawn --ranks 2 --collective allreduce2
# nccl-tests' flags keep their meaning or are refused with it (issue 28); ranges (issue 31).
check_usage "-d half: nccl-tests' datatype" "-d: refused: nccl-tests' datatype" \
  "$B" ring --spawn --ranks 2 -d half
for f in -o -t -g -a -z -G -m; do
  check_usage "$f: nccl-tests' meaning" "$f: refused: nccl-tests'" "$B" ring --spawn --ranks 2 $f 1
done
check_usage "-s 3: not a float" "-s 3: a whole number of float32" "$B" ring --spawn --ranks 2 -s 3
check_usage "-i 3: not a float" "-i 3: a whole number of float32" "$B" ring --spawn --ranks 2 -b 4 \
  -e 16 -i 3
check_usage "--timeout 2^31" "--timeout: '2147483648' is out of range" "$B" ring --spawn --ranks 2 \
  --timeout 2147483648
check_usage "--ranks 4097" "--ranks: '4097' is out of range" "$B" ring --spawn --ranks 4097
check_usage "-n 4e9" "--iters: '4000000000' is out of range" "$B" ring --spawn --ranks 2 -n 4000000000
check_usage "-w 4e9" "--warmup_iters: '4000000000' is out of range" "$B" ring --spawn --ranks 2 -w 4000000000
check_usage "unknown option" "not expected: --bogus" "$B" ring --spawn --ranks 2 --bogus
check_usage "--json and --export-flows one file" "--json .*x.json and --export-flows .*name one file" \
  "$B" ring --spawn --ranks 2 --json "$work/x.json" --export-flows "$work/x.json"
finish
