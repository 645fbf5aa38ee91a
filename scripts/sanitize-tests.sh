#!/usr/bin/env bash
# Builds every target with AddressSanitizer + UndefinedBehaviorSanitizer (GCC, -O1, -g1: line tables for the
# stacks, GB_SANITIZE=ON) into build-asan and runs the whole ctest suite there once. Fails when a test fails or
# when any sanitizer reported anything, in a test or in a gamboost process a test started (reports go to
# build-asan/sanitizer-logs/ too, so that a report in a child process whose exit status a test does not look at
# still fails this step).
#
# Usage: scripts/sanitize-tests.sh [extra cmake configure arguments]
# The GUI and its tests (tests/ui) are left out by default to keep CI within its time budget (they would add
# about a third to the build); GB_SANITIZE_GUI=ON builds and runs them too (their timing bounds are scaled
# under GB_SANITIZED).
# Third-party leak suppressions: scripts/sanitizers/lsan.supp (docs/reliability.md says which and why).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${GB_ASAN_BUILD_DIR:-build-asan}

configure_args=()
command -v ccache >/dev/null && configure_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# With precompiled headers (cmake/Pch.cmake) ccache caches a compile only with this sloppiness.
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
# Ninja for a new build folder: it compiles a library's sources while the libraries below it still compile, where
# make waited for each engine layer in turn (a folder made earlier keeps its generator).
[ ! -f "$BUILD_DIR/CMakeCache.txt" ] && command -v ninja >/dev/null && configure_args+=(-G Ninja)
start=$SECONDS
# PoCL's kernel cache is shared with the Release build (GB_SANITIZE_POCL_CACHE, default build/pocl-cache): the
# kernels are PoCL's LLVM output, not instrumented code, and compiling them again under ASan's allocator took most
# of the OpenCL tests' time here.
pocl_cache=${GB_SANITIZE_POCL_CACHE:-$ROOT/${GB_BUILD_DIR:-build}/pocl-cache}
mkdir -p "$pocl_cache"
cmake -S . -B "$BUILD_DIR" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DGB_SANITIZE=ON -DGB_TEST_POCL_CACHE="$pocl_cache" \
  -DGB_SKIP_TESTS="cli.test_cli_distributed;cli.test_cli_distributed_read" \
  -DGB_BUILD_GUI="${GB_SANITIZE_GUI:-OFF}" "${configure_args[@]}" "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
echo "sanitize: built in $((SECONDS - start)) s"

logs=$ROOT/$BUILD_DIR/sanitizer-logs
rm -rf "$logs"
mkdir -p "$logs"
# abort_on_error: a report kills the process with SIGABRT, which no expected exit status (1 or 2) can hide.
common="abort_on_error=1:log_path=$logs/report:log_exe_name=1"
export ASAN_OPTIONS="$common:detect_leaks=1:strict_init_order=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="$common:print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$ROOT/scripts/sanitizers/lsan.supp:print_suppressions=0"
export QT_QPA_PLATFORM=offscreen

status=0
# GB_SANITIZE_CTEST_ARGS: extra ctest arguments, e.g. "-R engine" to run a part of the suite.
# shellcheck disable=SC2086
# opencl.test_kernel_args builds every program of the engine in one process; at its exit LeakSanitizer's
# stop-the-world tracer crashed (signal 11 inside the tracer, PoCL's worker threads alive), which is a failure of the
# tool, not a leak report. The reference tests start many `gamboost fit/cv --backend opencl` processes, and the same
# tracer crash ended one of them at its exit (2026-11-25: "Tracer caught signal 11 ... LeakSanitizer has encountered
# a fatal error", exit status non-zero, so the test failed). These run with AddressSanitizer and UBSan as every test,
# but without the leak check; every other test (the OpenCL backend's and families' in-process ones too) keeps it.
# opencl.test_cross_fill (one OpenCL program set per data row) met the same tracer crash at its exit on 2026-11-26,
# and opencl.test_opencl_profile on 2026-12-01 ("Tracer caught signal 11", all 5 of its tests passed; 4 runs of it
# alone afterwards passed the leak check).
noLeakCheck='^(opencl.test_kernel_args|opencl.test_cross_fill|opencl.test_opencl_profile|reference.test_family_references|reference.test_cv_references)$'
# cli.test_cli_distributed(_read) run `mpirun -np 2|3 gamboost fit --distributed`: under the sanitizers that is Open MPI's
# own start-up and shutdown (its allocations at MPI_Finalize and MPI_Abort, its process launcher), not our code, and
# it is neither built nor run here (GB_SKIP_TESTS above); the Release step runs it, and the MPI code's arithmetic is
# the sharded backend's, which opencl.test_sharded_backend checks here in one process.
failedLog=$ROOT/$BUILD_DIR/Testing/Temporary/LastTestsFailed.log
failed=()  # every test either run failed (LastTestsFailed.log: "57:opencl.test_sharded_backend")
noteFailed() { [ -f "$failedLog" ] && while IFS=: read -r _ name; do failed+=("$name"); done <"$failedLog"; true; }
rm -f "$failedLog"
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$(nproc)" -E "$noLeakCheck" ${GB_SANITIZE_CTEST_ARGS:-}) ||
  { status=$?; noteFailed; }
rm -f "$failedLog"
(cd "$BUILD_DIR" && ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" \
  ctest --output-on-failure -j "$(nproc)" -R "$noLeakCheck" ${GB_SANITIZE_CTEST_ARGS:-}) || { status=$?; noteFailed; }

# The same tracer crash can end any in-process OpenCL test at its exit (2026-11-27: opencl.test_sharded_backend,
# every one of its 25 cases passed, then "Tracer caught signal 11"). A report that says only that is a failure of
# the tool: such a test is run once more, with the leak check, and must then pass with no report at all. A report
# of anything else (a leak, an ASan or UBSan error), or one from a process whose test cannot be named (a gamboost a
# test started), fails the step as before.
tracerOnly() { grep -q "Tracer caught signal" "$1" && ! grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error" "$1"; }
rerun=()
if compgen -G "$logs/report*" >/dev/null; then
  for f in "$logs"/report*; do
    exe=$(basename "$f" | sed -E 's/^report\.//; s/\.[0-9]+$//')
    if tracerOnly "$f" && [[ $exe =~ ^[a-z]+_test_ ]]; then
      rerun+=("${exe/_/.}")
    else
      rerun=()
      break
    fi
  done
fi
for name in "${failed[@]}"; do  # a test that failed without such a report is a failure, whatever else happened
  [[ " ${rerun[*]} " == *" $name "* ]] || rerun=()
done
if [ ${#rerun[@]} -gt 0 ]; then
  echo "sanitize: LeakSanitizer's tracer crashed at the exit of ${rerun[*]}; its report:"
  for f in "$logs"/report*; do head -5 "$f"; done
  rm -f "$logs"/report*
  status=0
  names=$(printf '%s|' "${rerun[@]}")
  (cd "$BUILD_DIR" && ctest --output-on-failure -R "^(${names%|})\$") || status=$?
  # The tracer can crash at every exit of a test: on 2026-12-02 (a Zen 5 machine) it did so at each of 5 runs of
  # opencl.test_dense_gemv with POCL_CACHE_DIR set (as ctest sets it), all 52 cases passing each time, and at none of
  # 3 runs without it. Where the second run's reports again say only that, the tests run a third
  # time without the leak check (AddressSanitizer and UBSan still on), must pass with no report, and are named here.
  again=0
  if [ $status -ne 0 ] && compgen -G "$logs/report*" >/dev/null; then
    again=1
    for f in "$logs"/report*; do tracerOnly "$f" || again=0; done
  fi
  if [ $again -eq 1 ]; then
    echo "sanitize: the tracer crashed again at the exit of ${rerun[*]}: run once more without the leak check"
    rm -f "$logs"/report*
    status=0
    (cd "$BUILD_DIR" && ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" \
      ctest --output-on-failure -R "^(${names%|})\$") || status=$?
    echo "sanitize: leak check not run for ${rerun[*]} (LeakSanitizer's tracer crashed twice)"
  fi
fi
if compgen -G "$logs/report*" >/dev/null; then
  echo "sanitize: sanitizer reports (in $logs):"
  for f in "$logs"/report*; do
    echo "----- $f"
    head -60 "$f"
  done
  status=1
fi
echo "sanitize: took $((SECONDS - start)) s"
exit $status
