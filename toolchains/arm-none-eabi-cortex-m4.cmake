# Cortex-M4F (Armv7E-M with the DSP extension and the single-precision FPU, hard float; e.g.
# STM32F4, nRF52840, and QEMU's mps2-an386): Debian's gcc-arm-none-eabi 12, newlib
# (multilib thumb/v7e-m+fp/hard). Chooses the compiler, flags and sysroot only.
set(EDGENMT_CORTEX_M_CPU_FLAGS "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
