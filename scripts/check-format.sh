#!/usr/bin/env bash
# Fails (exit 1) when a tracked C++ file differs from .clang-format, listing the places. CI runs it first.
# Fix with: git ls-files '*.cpp' '*.hpp' '*.h' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format missing (scripts/setup.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/check-format.$$; then
  grep 'warning:\|error:' /tmp/check-format.$$ | head -40 >&2
  echo "check-format: $(grep -c 'error:' /tmp/check-format.$$) places differ from .clang-format ($(clang-format --version))" >&2
  rm -f /tmp/check-format.$$
  exit 1
fi
rm -f /tmp/check-format.$$
echo "check-format: ${#files[@]} files match .clang-format"
