#!/usr/bin/env bash
# Sets up (apt packages), builds, and runs every test with ctest. This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/check-format.sh
scripts/build.sh
export QT_QPA_PLATFORM=offscreen
cd "${GB_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)"
