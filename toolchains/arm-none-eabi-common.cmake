# Shared part of the bare-metal Cortex-M toolchain files (arm-none-eabi-cortex-m55.cmake,
# arm-none-eabi-cortex-m7.cmake): Debian's gcc-arm-none-eabi with newlib
# (libnewlib-arm-none-eabi) and libstdc++ (libstdc++-arm-none-eabi-newlib). Chooses the
# compiler, flags and sysroot only; the including file sets EDGENMT_CORTEX_M_CPU_FLAGS first.
#
# Bare metal: no exceptions, no RTTI, no threadsafe statics (no OS), unused sections dropped at
# link time. Firmware links with its own startup code and linker script (targets/cortex-m*/).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# No OS to run a test program on: CMake's compiler checks build a static library instead.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(EDGENMT_CORTEX_M_COMMON_FLAGS "-mthumb -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${EDGENMT_CORTEX_M_CPU_FLAGS} ${EDGENMT_CORTEX_M_COMMON_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT
    "${EDGENMT_CORTEX_M_CPU_FLAGS} ${EDGENMT_CORTEX_M_COMMON_FLAGS} -fno-exceptions -fno-rtti -fno-threadsafe-statics")
set(CMAKE_ASM_FLAGS_INIT "${EDGENMT_CORTEX_M_CPU_FLAGS} -mthumb")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections")

# Headers and libraries from the toolchain's root (plus roots the preset adds in
# CMAKE_FIND_ROOT_PATH, e.g. build/cross-headers); programs (flatc) from the host.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/lib/arm-none-eabi)
# CMake's Generic platform knows no prefixes: search <root>/usr (build/cross-headers/usr/include).
list(APPEND CMAKE_SYSTEM_PREFIX_PATH /usr)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
