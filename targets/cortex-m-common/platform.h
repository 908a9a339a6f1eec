// The thin platform layer a Cortex-M target gives the harness: a cycle clock and a log. The
// runtime itself needs none of it (it has no clock and prints nothing); boards supply
// board_clock_hz() (board.c) and the linker symbols of their memory map.
#ifndef EDGENMT_TARGETS_PLATFORM_H_
#define EDGENMT_TARGETS_PLATFORM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Board facts (targets/<board>/board.c).
const char* board_name(void);
uint32_t board_clock_hz(void);  // SysTick's processor clock (QEMU: the board's SYSCLK)

// Starts the cycle clock: SysTick on the processor clock, wrap-around counted by its interrupt.
void platform_clock_init(void);
// Processor clock ticks since platform_clock_init (64-bit, monotonic).
uint64_t platform_clock_ticks(void);

// printf-style line to the semihosting console (stderr), prefixed with the board name.
void platform_log(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Stack painting: the reset handler fills the stack below its own frame with a pattern.
// platform_stack_paint() refills the part below the caller's frame and returns how deep that
// frame already is (bytes from the top of the stack); platform_stack_peak() gives the deepest
// use since the last paint, in bytes below the caller's frame (so a phase's peak is
// paint depth + peak). platform_stack_size(): the stack the linker script reserved.
size_t platform_stack_paint(void);
size_t platform_stack_peak(void);
size_t platform_stack_size(void);

#ifdef __cplusplus
}
#endif

#endif  // EDGENMT_TARGETS_PLATFORM_H_
