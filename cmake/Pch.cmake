# Precompiled headers (GB_PCH, default ON). Parsing Eigen, nlohmann/json, Qt Widgets and Qt Test took most of
# each source's compile time (measured 2026-11-26, GCC 12 -O3: Eigen + json 3.2 s of Booster.cpp's 5.7 s; Qt Widgets
# and QCustomPlot about 10 s on their own; <QtTest> 3.2 s of a 5.6 s test), and a clean build compiles about 350
# sources on 2 cores. A GCC header costs about 11 s to build (180-400 MB) and about 1 s to load, so it pays only
# where many sources include the heavy headers: the compute layer (engine/CMakeLists.txt), the CLI library, the GUI
# library (RiskPlot.cpp 11.1 s without, 3.7 s with), and the tests, whose area shares one (tests/CMakeLists.txt).
option(GB_PCH "Precompile the heavy third-party headers" ON)

set(GB_PCH_ENGINE_HEADERS <Eigen/Dense> <nlohmann/json.hpp> <algorithm> <cmath> <functional> <memory> <string>
  <vector>)

# gb_precompile(<target> <header>...): the target's sources see the headers through its precompiled header.
function(gb_precompile target)
  if(GB_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()

# Unity builds of the engine's layers and the CLI library (GB_UNITY, default ON): their sources compiled in
# batches of 8 share the parsing of the headers they all include. A clean build on 2 cores compiles the engine three
# times (Release, the sanitizer step, the fuzz step), where it took about 2.4, 5 and 3.5 s a source.
# gb_unity(<target> [SEPARATE <source>...]): SEPARATE names the sources that keep their own translation unit
# because a file-local helper of theirs has the same name as another source's of the same target.
option(GB_UNITY "Compile the engine and CLI libraries in unity batches" ON)
function(gb_unity target)
  cmake_parse_arguments(U "" "" "SEPARATE" ${ARGN})
  if(NOT GB_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  foreach(source IN LISTS U_SEPARATE)
    set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endfunction()
