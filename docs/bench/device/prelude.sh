# Sourced by the h100-*.sh scripts, run from the repository root on the GPU machine with .device carried
# (scripts/pack-device-headers.sh): registers NVIDIA's OpenCL driver, makes $R (results, under $OUT), builds the
# CLI into build-gpu (when it is missing, or always with REBUILD=1) and sets G to it.
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
R=$OUT/r; mkdir -p $R
if [ ! -x build-gpu/app/gamboost ] || [ "${REBUILD:-0}" = 1 ]; then
  (cmake -S . -B build-gpu -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF -DGB_VENDOR_INCLUDE=$PWD/.device/include \
     > $R/cfg.log 2>&1 && cmake --build build-gpu -j16 --target gamboost > $R/build.log 2>&1) || { tail -40 $R/cfg.log $R/build.log; exit 1; }
fi
G=./build-gpu/app/gamboost
# binomial_paper_csv OUT [BASE]: the paper's data, n = 2e4, p = 20 (5 informative), seed 11, into BASE (default
# /tmp/s.csv), and OUT with a first column bin = 1 where y is above its median.
binomial_paper_csv() {
  local out=$1 base=${2:-/tmp/s.csv} med
  $G generate --rows 20000 --covariates 20 --informative 5 --seed 11 --out "$base" --quiet 2>/dev/null
  med=$(tail -n +2 "$base" | cut -d, -f1 | sort -g | awk '{v[NR] = $1} END {print v[int(NR / 2) + 1]}')
  awk -F, -v med="$med" 'NR == 1 {print "bin," $0; next} {print ($1 > med ? 1 : 0) "," $0}' "$base" > "$out"
}
