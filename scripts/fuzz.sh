#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz into build-fuzz (clang, ASan+UBSan, coverage-instrumented
# engine and CLI; no GUI, no Qt tests, no OpenCL) and runs each fuzzer for a bounded time. Fails on any finding.
#
# Usage: scripts/fuzz.sh [SECONDS] [FUZZER...]   (default: 60 s each for fuzz_csv, fuzz_model, fuzz_options)
#
# For each fuzzer: first every regression input (tests/fuzz/regressions/<fuzzer>/, inputs that once failed) is
# replayed on its own; then the fuzzer runs for SECONDS on a scratch copy of its seed corpus
# (tests/fuzz/corpus/<fuzzer>/) plus the regression inputs that pass, so the repository is never modified.
# A crash, sanitizer report, timeout, out-of-memory or broken property is saved under
# build-fuzz/findings/<fuzzer>/ and printed with the command that reproduces it. docs/reliability.md has more.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_EACH=${1:-60}
if [ $# -gt 0 ]; then shift; fi
FUZZERS=("$@")
if [ ${#FUZZERS[@]} -eq 0 ]; then FUZZERS=(fuzz_csv fuzz_model fuzz_options); fi
BUILD_DIR=${GB_FUZZ_BUILD_DIR:-build-fuzz}

configure_args=()
command -v ccache >/dev/null && configure_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# With precompiled headers (cmake/Pch.cmake) ccache caches a compile only with this sloppiness.
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
# Ninja for a new build folder: it compiles a library's sources while the libraries below it still compile, where
# make waited for each engine layer in turn (a folder made earlier keeps its generator).
[ ! -f "$BUILD_DIR/CMakeCache.txt" ] && command -v ninja >/dev/null && configure_args+=(-G Ninja)
start=$SECONDS
cmake -S . -B "$BUILD_DIR" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DGB_FUZZ=ON -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF \
  -DGB_WITH_OPENCL=OFF "${configure_args[@]}" >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target "${FUZZERS[@]}"
echo "fuzz: built in $((SECONDS - start)) s"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Per input: 20 s (a hang), 2 GB (an allocation a small input should never ask for).
LIMITS=(-timeout=20 -rss_limit_mb=2048)

passed=0
failed=0
for f in "${FUZZERS[@]}"; do
  bin=$BUILD_DIR/tests/fuzz/$f
  corpus=$scratch/$f
  findings=$BUILD_DIR/findings/$f
  rm -rf "$findings"
  mkdir -p "$corpus" "$findings"
  cp tests/fuzz/corpus/"$f"/* "$corpus"/
  dict=()
  case $f in
    fuzz_csv) dict=(-dict=tests/fuzz/csv.dict) ;;
    fuzz_model) dict=(-dict=tests/fuzz/json.dict) ;;
    fuzz_options) dict=(-dict=tests/fuzz/options.dict) ;;
  esac
  ok=1

  # 1. The regression inputs, each on its own so that every failing one is named.
  nreg=0
  for input in tests/fuzz/regressions/"$f"/*; do
    [ -f "$input" ] || continue
    nreg=$((nreg + 1))
    if "$bin" "${LIMITS[@]}" "$input" >"$scratch/replay.log" 2>&1; then
      cp "$input" "$corpus"/
    else
      ok=0
      echo "fuzz: $f FAILS on regression input $input; reproduce with: $bin $input"
      grep -a -E "ERROR|runtime error|gb-fuzz finding|terminate called|what\(\)|#[0-9]+ 0x.* in (gb|LLVMFuzzerTestOneInput|nlohmann)" \
        "$scratch/replay.log" | head -8 | cut -c1-220 || true
    fi
  done
  echo "fuzz: $f replayed $nreg regression inputs"

  # 2. Fuzz for SECONDS from the seed corpus (new inputs go to the scratch copy only).
  log=$findings/fuzz.log
  if "$bin" "${LIMITS[@]}" "${dict[@]}" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" >"$log" 2>&1; then
    echo "fuzz: $f ran $SECONDS_EACH s: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') inputs," \
      "$(grep -E '^stat::peak_rss_mb' "$log" | awk '{print $2}') MB peak, corpus $(ls "$corpus" | wc -l) files"
  else
    ok=0
    echo "fuzz: $f FOUND a failure after fuzzing (log: $log):"
    grep -a -E "ERROR|runtime error|gb-fuzz finding|terminate called|what\(\)|#[0-9]+ 0x.* in (gb|LLVMFuzzerTestOneInput|nlohmann)" \
      "$log" | head -12 | cut -c1-220 || true
    for artifact in "$findings"/crash-* "$findings"/timeout-* "$findings"/oom-* "$findings"/leak-*; do
      [ -f "$artifact" ] || continue
      echo "fuzz: reproduce with: $bin $artifact   (keep it as tests/fuzz/regressions/$f/<name>)"
    done
  fi
  if [ $ok -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: took $((SECONDS - start)) s"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
