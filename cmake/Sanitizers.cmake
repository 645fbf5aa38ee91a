# Sanitizer and fuzzer builds (docs/reliability.md, "Fuzzers and sanitizers").
#
# GB_SANITIZE: every target (engine, CLI, GUI, tests) built with AddressSanitizer + UndefinedBehaviorSanitizer.
#   Any UB aborts the program (-fno-sanitize-recover), so a report fails the test that caused it. GCC leaves
#   float-cast-overflow (a double too large for an int: UB) out of -fsanitize=undefined, so it is named too.
#   GB_SANITIZED=1 is defined for the code, so that tests can scale timing bounds (sanitizers slow code 2-10x).
# GB_FUZZ: the libFuzzer harnesses of tests/fuzz (clang only). Implies the sanitizers, and adds libFuzzer's
#   coverage instrumentation (-fsanitize=fuzzer-no-link) to every target, so the fuzzers are guided by the
#   engine's and CLI11's branches; only the harness executables link libFuzzer's main (-fsanitize=fuzzer).
option(GB_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
option(GB_FUZZ "Build the libFuzzer harnesses in tests/fuzz (clang; implies GB_SANITIZE)" OFF)

if(GB_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GB_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(GB_SANITIZE ON CACHE BOOL "Build with AddressSanitizer + UndefinedBehaviorSanitizer" FORCE)
endif()

if(GB_SANITIZE)
  set(GB_SANITIZER_FLAGS -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
                         -fno-omit-frame-pointer)
  add_compile_options(${GB_SANITIZER_FLAGS})
  add_link_options(${GB_SANITIZER_FLAGS})
  add_compile_definitions(GB_SANITIZED=1)
  message(STATUS "GB_SANITIZE: ${GB_SANITIZER_FLAGS}")
endif()

if(GB_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)
endif()
