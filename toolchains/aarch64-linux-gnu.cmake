# ARMv8-A Linux, 64-bit (Raspberry Pi 3/4/5 on a 64-bit OS, Cortex-A53/A72/A76): Debian's
# g++-aarch64-linux-gnu. Chooses the compiler, flags and sysroot only.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# EDGENMT_TARGET_CPU (optional, e.g. cortex-a53, cortex-a72, cortex-a76): tune for one core with
# -mcpu instead of the generic -march=armv8-a (targets/linux-aarch64/README.md). Takes effect in a
# fresh build directory (it initializes CMAKE_<LANG>_FLAGS).
if(EDGENMT_TARGET_CPU)
  set(EDGENMT_AARCH64_FLAGS "-mcpu=${EDGENMT_TARGET_CPU}")
else()
  set(EDGENMT_AARCH64_FLAGS "-march=armv8-a")
endif()
set(CMAKE_C_FLAGS_INIT "${EDGENMT_AARCH64_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${EDGENMT_AARCH64_FLAGS}")

# Libraries and headers come from the cross toolchain's root (plus any root the preset adds in
# CMAKE_FIND_ROOT_PATH, e.g. build/cross-headers); programs (flatc) from the host.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
# EDGENMT_SYSROOT: target libraries from Debian's packages (scripts/make-sysroot.sh); their
# architecture-specific headers (OpenSSL's configuration.h) sit under usr/include/aarch64-linux-gnu.
if(EDGENMT_SYSROOT)
  list(APPEND CMAKE_FIND_ROOT_PATH ${EDGENMT_SYSROOT})
  list(APPEND CMAKE_C_STANDARD_INCLUDE_DIRECTORIES ${EDGENMT_SYSROOT}/usr/include/aarch64-linux-gnu)
  list(APPEND CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES ${EDGENMT_SYSROOT}/usr/include/aarch64-linux-gnu)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
