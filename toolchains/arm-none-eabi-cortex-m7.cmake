# Cortex-M7 (Armv7E-M, double-precision FPv5, hard float; e.g. STM32F7/H7, i.MX RT, Arm's MPS2
# AN500 board and QEMU's mps2-an500): Debian's gcc-arm-none-eabi 12, newlib (multilib
# thumb/v7e-m+dp/hard). Chooses the compiler, flags and sysroot only.
set(EDGENMT_CORTEX_M_CPU_FLAGS "-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
