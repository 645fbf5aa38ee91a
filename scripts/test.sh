#!/usr/bin/env bash
# Sets up (apt packages), builds, and runs every test with ctest; then the whole suite again under
# ASan+UBSan (scripts/sanitize-tests.sh) and each libFuzzer harness for a bounded time (scripts/fuzz.sh,
# GB_FUZZ_SECONDS each, default 60). This is what CI runs. docs/reliability.md describes the last two steps.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
scripts/setup.sh
scripts/check-format.sh
scripts/check-sizes.py
scripts/build.sh
echo "test: Release build done at $((SECONDS - start)) s"
(
  export QT_QPA_PLATFORM=offscreen
  cd "${GB_BUILD_DIR:-build}"
  ctest --output-on-failure -j "$(nproc)"
)
echo "test: Release tests done at $((SECONDS - start)) s"
scripts/sanitize-tests.sh
echo "test: sanitizer build and tests done at $((SECONDS - start)) s"
scripts/fuzz.sh "${GB_FUZZ_SECONDS:-60}"
echo "test: fuzzers done at $((SECONDS - start)) s"
