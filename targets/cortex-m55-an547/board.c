// Arm MPS3 AN547 (Cortex-M55): board facts for the platform layer.
#include "platform.h"

const char* board_name(void) { return "cortex-m55-an547"; }
// SYSCLK of the AN547 FPGA image (32 MHz; QEMU models the same), SysTick's processor clock.
uint32_t board_clock_hz(void) { return 32000000u; }
