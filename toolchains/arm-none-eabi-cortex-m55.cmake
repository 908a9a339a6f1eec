# Cortex-M55 (Armv8.1-M mainline with Helium/MVE and the FPU, hard float; e.g. Arm's MPS3
# AN547 board, Alif Ensemble, and QEMU's mps3-an547): Debian's gcc-arm-none-eabi 12, newlib.
# -mcpu=cortex-m55 with -mfpu=auto enables what GCC 12 knows of the core:
# armv8.1-m.main+mve.fp+fp.dp (newlib multilib thumb/v8-m.main+dp/hard).
# Chooses the compiler, flags and sysroot only.
set(EDGENMT_CORTEX_M_CPU_FLAGS "-mcpu=cortex-m55 -mfpu=auto -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
