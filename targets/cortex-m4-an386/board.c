// Arm MPS2 AN386 (Cortex-M4F): board facts for the platform layer.
#include "platform.h"

const char* board_name(void) { return "cortex-m4-an386"; }
// SYSCLK of the MPS2 FPGA images (25 MHz; QEMU models the same), SysTick's processor clock.
uint32_t board_clock_hz(void) { return 25000000u; }
