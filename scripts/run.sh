#!/usr/bin/env bash
# Sets up (apt packages), builds, and starts GAMBoost Studio. Without the GUI built, or with
# GB_RUN_CLI=1, runs a demo fit of the paper's data through the CLI and prints its summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
BUILD_DIR=${GB_BUILD_DIR:-build}
if [ -x "$BUILD_DIR/app/gamboost-studio" ] && [ "${GB_RUN_CLI:-0}" != "1" ]; then
  exec "$BUILD_DIR/app/gamboost-studio" "$@"
fi
mkdir -p "$BUILD_DIR/demo"
"$BUILD_DIR/app/gamboost" generate --rows 10000 --seed 1 --out "$BUILD_DIR/demo/paper.csv"
exec "$BUILD_DIR/app/gamboost" fit --data "$BUILD_DIR/demo/paper.csv" --out "$BUILD_DIR/demo/result.json" \
  --model "$BUILD_DIR/demo/model.json" --summary
