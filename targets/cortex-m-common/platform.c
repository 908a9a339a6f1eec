// Platform layer for the Cortex-M harness: SysTick clock, semihosting log, stack painting.
#include "platform.h"

#include <stdarg.h>
#include <stdio.h>

// Cortex-M system control space (ARMv7-M / ARMv8-M).
#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)
#define SCB_ICSR (*(volatile uint32_t*)0xE000ED04u)
#define ICSR_PENDSTSET (1u << 26)
#define SYSTICK_MAX 0x00FFFFFFu

static volatile uint32_t g_systick_wraps;
static uint64_t g_clock_base;

void SysTick_Handler(void) { ++g_systick_wraps; }

static uint64_t RawTicks(void) {
  uint32_t wraps, value, pending;
  do {
    wraps = g_systick_wraps;
    value = SYST_CVR;
    pending = SCB_ICSR & ICSR_PENDSTSET;
  } while (wraps != g_systick_wraps);
  // Reloaded, interrupt not yet taken: the value already belongs to the next period.
  if (pending && value > SYSTICK_MAX / 2) ++wraps;
  return (uint64_t)wraps * (SYSTICK_MAX + 1u) + (SYSTICK_MAX - value);
}

void platform_clock_init(void) {
  SYST_CSR = 0;
  SYST_RVR = SYSTICK_MAX;
  SYST_CVR = 0;  // any write clears the counter; it reloads from RVR on the first tick
  g_systick_wraps = 0;
  SYST_CSR = 0x7u;  // processor clock, interrupt on wrap, enabled
  while (SYST_CVR == 0) {
  }
  g_clock_base = RawTicks();
}

uint64_t platform_clock_ticks(void) { return RawTicks() - g_clock_base; }

void platform_log(const char* format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "%s: ", board_name());
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

// Linker script symbols (targets/cortex-m-common/sections.ld).
extern uint32_t __stack_bottom[];
extern uint32_t __stack_top[];
#define STACK_PAINT 0xA5A5A5A5u

static uint32_t* g_paint_top;  // the stack pointer when painting last ran

static uint32_t* FirstUsed(void) {
  uint32_t* p = __stack_bottom;
  while (p < __stack_top && *p == STACK_PAINT) ++p;
  return p;
}

__attribute__((noinline)) size_t platform_stack_paint(void) {
  uint32_t* sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  g_paint_top = sp - 16;  // leave this function's own frame alone
  for (volatile uint32_t* p = __stack_bottom; p < g_paint_top; ++p) *p = STACK_PAINT;
  return (size_t)((char*)__stack_top - (char*)sp);
}

size_t platform_stack_peak(void) {
  uint32_t* first = FirstUsed();
  return first >= g_paint_top ? 0 : (size_t)((char*)g_paint_top - (char*)first);
}

size_t platform_stack_size(void) { return (size_t)((char*)__stack_top - (char*)__stack_bottom); }
