#!/usr/bin/env bash
# Copies the header-only dependencies (nlohmann/json, CLI11, fast_float, the Boost.Math root finders) into
# .device/include, for building the engine + CLI on a machine without those packages (the GPU machine, which has no
# network). Configure there with -DGB_VENDOR_INCLUDE=$PWD/.device/include.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.device/include
rm -rf "$dest" && mkdir -p "$dest"
cp -r /usr/include/nlohmann /usr/include/CLI /usr/include/fast_float "$dest"/
probe=$(mktemp --suffix=.cpp)
printf '#include <boost/math/tools/roots.hpp>\n#include <boost/math/tools/toms748_solve.hpp>\nint main(){}\n' > "$probe"
g++ -std=c++20 -M "$probe" | tr ' \\' '\n\n' | grep '^/usr/include/boost/' | sort -u | while read -r h; do
  rel=${h#/usr/include/}
  mkdir -p "$dest/$(dirname "$rel")"
  cp "$h" "$dest/$rel"
done
rm -f "$probe"
du -sh "$dest"
