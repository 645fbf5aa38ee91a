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
