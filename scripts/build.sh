#!/usr/bin/env bash
# Configures and builds into build/ (Release). Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${GB_BUILD_DIR:-build}
configure_args=()
# ccache makes a rebuild of an unchanged tree (a second run of the README command) take seconds.
command -v ccache >/dev/null && configure_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# With precompiled headers (cmake/Pch.cmake) ccache caches a compile only with this sloppiness.
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
# Ninja for a new build folder: it compiles a library's sources while the libraries below it still compile, where
# make waited for each engine layer in turn (a folder made earlier keeps its generator).
[ ! -f "$BUILD_DIR/CMakeCache.txt" ] && command -v ninja >/dev/null && configure_args+=(-G Ninja)
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${configure_args[@]}" "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
