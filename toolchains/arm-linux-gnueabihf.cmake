# ARMv7-A Linux, NEON, hard float (Raspberry Pi 2/3/4 on a 32-bit OS, Cortex-A7/A53/A72):
# Debian's g++-arm-linux-gnueabihf. Chooses the compiler, flags and sysroot only.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7-a)

set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
# 64-bit file offsets and inode numbers: without them readdir()/stat() fail with EOVERFLOW on
# large file systems (the host tools and tests read model directories).
# EDGENMT_TARGET_CPU (optional, e.g. cortex-a7, cortex-a53, cortex-a72): tune for one core with
# -mcpu instead of the generic -march=armv7-a (targets/linux-armv7/README.md); NEON-VFPv4 and
# hard float either way. Takes effect in a fresh build directory.
if(EDGENMT_TARGET_CPU)
  set(EDGENMT_ARMV7_ARCH "-mcpu=${EDGENMT_TARGET_CPU}")
else()
  set(EDGENMT_ARMV7_ARCH "-march=armv7-a")
endif()
set(EDGENMT_ARMV7_FLAGS "${EDGENMT_ARMV7_ARCH} -mfpu=neon-vfpv4 -mfloat-abi=hard -D_FILE_OFFSET_BITS=64")
set(CMAKE_C_FLAGS_INIT "${EDGENMT_ARMV7_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${EDGENMT_ARMV7_FLAGS}")

# Libraries and headers come from the cross toolchain's root (plus any root the preset adds in
# CMAKE_FIND_ROOT_PATH, e.g. build/cross-headers); programs (flatc) from the host.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf)
# EDGENMT_SYSROOT: target libraries from Debian's packages (scripts/make-sysroot.sh); their
# architecture-specific headers (OpenSSL's configuration.h) sit under usr/include/arm-linux-gnueabihf.
if(EDGENMT_SYSROOT)
  list(APPEND CMAKE_FIND_ROOT_PATH ${EDGENMT_SYSROOT})
  list(APPEND CMAKE_C_STANDARD_INCLUDE_DIRECTORIES ${EDGENMT_SYSROOT}/usr/include/arm-linux-gnueabihf)
  list(APPEND CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES ${EDGENMT_SYSROOT}/usr/include/arm-linux-gnueabihf)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
