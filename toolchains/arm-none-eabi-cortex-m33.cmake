# Cortex-M33 (Armv8-M mainline with the DSP extension and the single-precision FPU, hard float;
# e.g. Raspberry Pi RP2350, nRF5340, STM32U5, and QEMU's mps2-an505): Debian's
# gcc-arm-none-eabi 12, newlib (multilib thumb/v8-m.main+fp/hard). GCC's cortex-m33 has the DSP
# extension unless +nodsp is asked. Chooses the compiler, flags and sysroot only.
set(EDGENMT_CORTEX_M_CPU_FLAGS "-mcpu=cortex-m33 -mfpu=fpv5-sp-d16 -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
