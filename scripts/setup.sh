#!/usr/bin/env bash
# Installs the Debian 12 packages GAMBoost Studio needs. Idempotent: skips packages already installed.
# Usage: scripts/setup.sh   (as root; uses sudo if not root)
set -euo pipefail

PACKAGES=(
  g++ cmake make ninja-build pkg-config
  libeigen3-dev libboost-math-dev nlohmann-json3-dev libcli11-dev libfast-float-dev
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd clinfo libclblast-dev
  libopenmpi-dev openmpi-bin   # fit --distributed (issue 15): Open MPI, and mpirun for its CI test
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
  fonts-dejavu-core xvfb xauth
  clang-format clang libfuzzer-14-dev libclang-rt-14-dev libomp-14-dev ccache   # CI's format check; the fuzzers (clang, libFuzzer, its sanitizer runtimes, OpenMP for clang); faster rebuilds
  r-base-core python3-patsy python3-numpy python3-scipy   # independent references for the exactness tests (tests/reference; patsy's bs() needs scipy)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
