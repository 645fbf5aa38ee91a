# Sourced by the probe scripts (packed-probe.sh, fold-probe.sh) after prelude.sh: Nsight Compute on one launch of a
# probe's kernel, and what its reports say. NCUBIN is set to ncu's path (empty where there is none).
#   ncu_profile LABEL KERNEL SKIP COMMAND...   profiles launch SKIP + 1 of KERNEL in COMMAND; writes
#     $R/LABEL-ncu.txt (the summary), $R/LABEL-stalls.txt (stall, issue, hit-rate and throughput metrics) and
#     $R/LABEL-sass-top.txt (the SASS lines with the most stall samples: a wait that is not spread over the loop
#     shows up there, e.g. loads that share a scoreboard), and prints the main lines of each.
NCUBIN=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
ncu_profile() {
  local label=$1 kernel=$2 skip=$3; shift 3
  timeout 300 $NCUBIN --kernel-name $kernel --launch-skip $skip --launch-count 1 --set full --import-source no \
    -o /tmp/$label "$@" > /tmp/ncu-run-$label.txt 2>&1 || tail -5 /tmp/ncu-run-$label.txt
  $NCUBIN -i /tmp/$label.ncu-rep --print-summary none > $R/$label-ncu.txt 2>&1
  $NCUBIN -i /tmp/$label.ncu-rep --page source --csv --print-source sass > /tmp/$label-sass.csv 2>&1
  $NCUBIN -i /tmp/$label.ncu-rep --page raw --csv > /tmp/raw-$label.csv 2>&1
  python3 - /tmp/raw-$label.csv > $R/$label-stalls.txt <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
names, units, values = rows[0], rows[1], rows[2]
for n, u, v in zip(names, units, values):
    if "stall" in n or "issue_active" in n or ("inst_executed" in n and "pipe" in n) or ("shared" in n and "wavefront" in n) \
       or "hit_rate" in n or ("throughput" in n and "pct" in n):
        print(n, v, u)
PY
  grep -E "Duration|Issued Warp|Eligible Warps|Achieved Occupancy|Executed Instructions  |Registers Per|L1/TEX Hit|L2 Hit|Memory Throughput|DRAM Throughput|Compute \(SM\)|Theoretical Occ|Block Limit|Shared Memory Configuration|Static Shared|Mem Busy|L1/TEX Cache Throughput|L2 Cache Throughput" $R/$label-ncu.txt | head -40
  grep -E "average_warps_issue_stalled.*per_issue_active" $R/$label-stalls.txt | sort -k2 -g -r | head -12
  echo "-- $label: the SASS lines with the most stall samples"
  python3 - /tmp/$label-sass.csv <<'PY' | tee $R/$label-sass-top.txt
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, data = rows[1], rows[2:]
ix = {h: i for i, h in enumerate(head)}
num = lambda s: float(s.replace(",", "")) if s.replace(",", "").replace(".", "").isdigit() else 0.0
col = "Warp Stall Sampling (All Samples)"
total = sum(num(r[ix[col]]) for r in data) or 1.0
keys = [k for k in ("stall_long_sb", "stall_short_sb", "stall_barrier", "stall_lg_throttle", "stall_wait", "stall_mio_throttle") if k in ix]
for k, r in sorted(enumerate(data), key=lambda kr: -num(kr[1][ix[col]]))[:14]:
    print(f'{100 * num(r[ix[col]]) / total:5.1f}%  line {k:5d}  ' + ' '.join(f'{kk[6:]} {num(r[ix[kk]]):6.0f}' for kk in keys) +
          f'  {r[ix["Source"]].strip()[:60]}')
PY
}
