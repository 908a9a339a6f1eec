# ARMv8-A Linux, 64-bit (Raspberry Pi 3/4/5 on a 64-bit OS, Cortex-A53/A72/A76): Debian's
# g++-aarch64-linux-gnu. Chooses the compiler, flags and sysroot only.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_C_FLAGS_INIT "-march=armv8-a")
set(CMAKE_CXX_FLAGS_INIT "-march=armv8-a")

# Libraries and headers come from the cross toolchain's root (plus any root the preset adds in
# CMAKE_FIND_ROOT_PATH, e.g. build/cross-headers); programs (flatc) from the host.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
