// Arm MPS2 AN505 (Cortex-M33): board facts for the platform layer.
#include "platform.h"

const char* board_name(void) { return "cortex-m33-an505"; }
// SYSCLK of the AN505 FPGA image (20 MHz; QEMU models the same), SysTick's processor clock.
uint32_t board_clock_hz(void) { return 20000000u; }
