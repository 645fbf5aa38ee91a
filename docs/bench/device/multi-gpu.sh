#!/bin/bash
# Issue 15: strong scaling of the row-sharded backend (fit --devices, engine/compute/ShardedBackend.hpp) on one host
# with several GPUs. Run from the repository root on an nvidia-h100-x2 (or -x4) machine with .device carried
# (scripts/pack-device-headers.sh), one step per call (each stays under the 10-minute command limit):
#   STEP=devices bash docs/bench/device/multi-gpu.sh   # nvidia-smi topology, `gamboost devices` (the P:D addresses)
#   STEP=one     ...                                   # 1 GPU: the single-device backend (--device) at $ROWS
#   STEP=shard1  ...                                   # 1 GPU through the sharded backend (its own overhead)
#   STEP=shard2  ...                                   # 2 GPUs (--devices A,B)
#   STEP=shard4  ...                                   # 4 GPUs, where the machine has them
#   STEP=report  ...                                   # efficiency table from the runs above (python3)
#   STEP=scale   ...                                   # 1, 2 and 4 GPUs in ONE bench fit (one data set, configs
#                                                      # opencl:compact_x:float@A, @A+B, @A+B+C+D), then its table
#   STEP=big     ...                                   # ROWS on all GPUs only (n = 3e8 on 4: one GPU cannot hold it)
#   STEP=pieces  ...                                   # ROWS=40000000 on one GPU in 1 piece, then in 3 (their cost)
#   STEP=profile ...                                   # all GPUs with --profile: stages and kernels by name
# A device's rows that its largest allocation cannot hold go to several pieces on it (RowShard::maxRows), so one
# GPU runs n = 1e8 through the sharded backend; result.json's device then says "(N pieces)".
# Shape: n = $ROWS (default 1e8), p = 100 covariates, knots 20, mstop 1000, compact_x in float, the paper's data
# generated in memory. bench fit reports set-up (setup_s: model frame, learners, uploads) and fit (fit_s) apart, and
# the sharded backend's measured exchange per iteration (tuning: "exchange <t> us/iteration, <b> B/iteration").
# At n = 1e8, p = 100 the covariates alone are 40 GB in float: above NVIDIA's largest single allocation (about
# 21 GB on an H100), so the one-GPU runs may be refused ("OpenCL buffer too large"); the report then says so, and
# ROWS=50000000 gives the largest strong-scaling base one GPU holds.
# A dry run elsewhere: G=build/app/gamboost OUT=/tmp/x TYPE=CPU ROWS=20000 (skips the prelude, uses CPU devices).
set -u
REBUILD=${REBUILD:-0}
if [ -z "${G:-}" ]; then . "$(dirname "$0")/prelude.sh"; fi
TYPE=${TYPE:-GPU}
ROWS=${ROWS:-100000000}
STEP=${STEP:-devices}
D=$OUT/multi-gpu; mkdir -p $D
# The GPUs' addresses, in order: P:D of every device of type GPU.
gpus=$($G devices --json | python3 -c "import json,sys; print(','.join(d['address'] for d in json.load(sys.stdin)['devices'] if d['backend']=='opencl' and d['type']=='$TYPE'))")
first() { echo "$gpus" | cut -d, -f1-"$1"; }
bench() {  # name, then the device options
  local name=$1; shift
  { uptime; free -g; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader 2>/dev/null; } > $D/$name-$ROWS.env
  local start=$(date +%s)
  timeout 570 $G bench fit --rows $ROWS --covariates 100 --knots 20 --mstop 1000 --reps 1 \
    --configs opencl:compact_x:float "$@" --out $D/$name-$ROWS > $D/$name-$ROWS.txt 2> $D/$name-$ROWS.err
  echo "$name rc=$? wall $(( $(date +%s) - start )) s (data generation included)"
  tail -3 $D/$name-$ROWS.txt; grep -v "^bench fit:" $D/$name-$ROWS.err | tail -3
}
at() { echo "$gpus" | cut -d, -f1-"$1" | tr ',' '+'; }  # the first N addresses joined by '+' (a config's @ list)
table() {  # the speed-up table of one multi-config bench fit report
  python3 - "$1" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["timings"]
base = t[0]
print(f"n = {base['rows']}, p = 100, knots 20, mstop 1000, compact_x float; speed-up and efficiency on fit_s against the first row")
print("gpus  device                                        setup_s   fit_s   s/iter     speed-up  efficiency  same path  exchange")
for r in t:
    g = len(r["compute"]["devices"]) or 1
    speed = base["fit_s"] / r["fit_s"]
    g0 = len(base["compute"]["devices"]) or 1
    print(f"{g:4}  {r['device'][:44]:44}  {r['setup_s']:7.1f}  {r['fit_s']:7.2f}  {r['seconds_per_iteration']*1e3:6.2f} ms"
          f"  {speed:7.2f}x  {speed * g0 / g:9.0%}   {r['same_path_iterations']:8}  {r.get('tuning', '')}")
PY
}
multi() {  # name, then configs
  local name=$1; shift
  { uptime; free -g; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader 2>/dev/null; } > $D/$name-$ROWS.env
  local start=$(date +%s)
  timeout 590 $G bench fit --rows $ROWS --covariates 100 --knots 20 --mstop 1000 --reps 1 --configs "$@" \
    --out $D/$name-$ROWS > $D/$name-$ROWS.txt 2> $D/$name-$ROWS.err
  echo "$name rc=$? wall $(( $(date +%s) - start )) s (data generation included)"
  cat $D/$name-$ROWS.txt; grep -v "^bench fit:" $D/$name-$ROWS.err | tail -3
  [ -f $D/$name-$ROWS.json ] && table $D/$name-$ROWS.json | tee $D/$name-$ROWS-table.txt
}
n=$(echo "$gpus" | tr ',' '\n' | grep -c .)
case $STEP in
  scale) c="opencl:compact_x:float@$(at 1),opencl:compact_x:float@$(at 2)"
         [ "$n" -ge 4 ] && c="$c,opencl:compact_x:float@$(at 4)"
         multi scale $c ;;
  big) multi big "opencl:compact_x:float@$(at $n)" ;;
  pieces) multi pieces1 "opencl:compact_x:float@$(at 1)"  # ROWS=40000000: one piece (16 GB of x fits)
          GAMBOOST_SHARD_ROWS=$(( (ROWS + 2) / 3 )) multi pieces3 "opencl:compact_x:float@$(at 1)" ;;
  profile) multi profile "opencl:compact_x:float@$(at $n)" --profile; grep -v "^bench fit:" $D/profile-$ROWS.err ;;
  devices) nvidia-smi topo -m | tee $D/topo.txt; $G devices | tee $D/devices.txt; echo "GPUs: $gpus" ;;
  one) bench one --device "$(first 1)" ;;
  shard1) bench shard1 --devices "$(first 1)" ;;
  shard2) bench shard2 --devices "$(first 2)" ;;
  shard4) [ "$(echo "$gpus" | tr ',' '\n' | wc -l)" -ge 4 ] && bench shard4 --devices "$(first 4)" || echo "fewer than 4 GPUs" ;;
  report) python3 - "$D" "$ROWS" <<'PY'
import json, os, sys
d, rows = sys.argv[1], sys.argv[2]
runs = {}
def same(a, b):  # leading iterations that select the same learners (float: sums in other orders may part late)
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n
for name in ("one", "shard1", "shard2", "shard4"):
    path = f"{d}/{name}-{rows}.json"
    if os.path.exists(path):
        runs[name] = json.load(open(path))["timings"][0]
if not runs:
    sys.exit("no runs at rows = " + rows)
base, baseGpus = runs.get("one") or runs.get("shard1"), 1
if base is None:  # one GPU could not hold the data: efficiency relative to the smallest run that did
    name = next(iter(runs))
    base, baseGpus = runs[name], {"shard2": 2, "shard4": 4}[name]
    print(f"no one-GPU run at this size: speed-up and efficiency relative to {name}")
print(f"n = {rows}, p = 100, knots 20, mstop 1000, compact_x float")
print("run     gpus  setup_s   fit_s   s/iter    speed-up  efficiency  same path  exchange")
for name, t in runs.items():
    g = {"one": 1, "shard1": 1, "shard2": 2, "shard4": 4}[name]
    speed = base["fit_s"] / t["fit_s"]
    print(f"{name:7} {g:4}  {t['setup_s']:7.1f}  {t['fit_s']:7.2f}  {t['seconds_per_iteration']*1e3:6.2f} ms"
          f"  {speed:7.2f}x  {speed * baseGpus / g:9.0%}   {same(base['path'], t['path']):8}  {t.get('tuning', '')}")
PY
  ;;
esac
tar czf $OUT/multi-gpu.tgz -C $OUT multi-gpu
