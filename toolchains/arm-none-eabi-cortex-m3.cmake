# Cortex-M3 (Armv7-M: no DSP extension, no FPU, soft float; e.g. STM32F1, LPC1768, and QEMU's
# mps2-an385): Debian's gcc-arm-none-eabi 12, newlib (multilib thumb/v7-m/nofp). The SIMD
# backend has no level here: the firmware runs the portable reference kernels.
set(EDGENMT_CORTEX_M_CPU_FLAGS "-mcpu=cortex-m3 -mfloat-abi=soft")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
