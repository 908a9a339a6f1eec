// Startup for the Cortex-M targets (ARMv7-M and ARMv8-M mainline): vector table, reset
// handler (FPU/MVE on, .data copied, .bss zeroed, static constructors, main), fault handlers
// that report through semihosting, and the _init/_fini stubs __libc_init_array expects when
// the toolchain's crt files are not linked (-nostartfiles).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "semihosting.h"

extern uint32_t __stack_top[];
extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern void __libc_init_array(void);
extern void initialise_monitor_handles(void);  // librdimon: opens the semihosting console
extern int main(void);
extern void SysTick_Handler(void);

void Reset_Handler(void) __attribute__((noreturn));
void _init(void) {}
void _fini(void) {}

#define SCB_CFSR (*(volatile uint32_t*)0xE000ED28u)
#define SCB_HFSR (*(volatile uint32_t*)0xE000ED2Cu)
#define SCB_BFAR (*(volatile uint32_t*)0xE000ED38u)
#define SCB_MMFAR (*(volatile uint32_t*)0xE000ED34u)

// Reports a fault with the stacked program counter and the fault status registers, then ends
// the program with status 99 (the host sees a failure, not a hang).
void FaultReport(const uint32_t* frame, uint32_t exception) __attribute__((used, noreturn));
void FaultReport(const uint32_t* frame, uint32_t exception) {
  fprintf(stderr,
          "edgenmt firmware: fault: exception %lu at pc 0x%08lx (lr 0x%08lx), CFSR 0x%08lx "
          "HFSR 0x%08lx MMFAR 0x%08lx BFAR 0x%08lx\n",
          (unsigned long)exception, (unsigned long)frame[6], (unsigned long)frame[5],
          (unsigned long)SCB_CFSR, (unsigned long)SCB_HFSR, (unsigned long)SCB_MMFAR,
          (unsigned long)SCB_BFAR);
  fflush(stderr);
  semihosting_exit(99);
}

// Every fault and unexpected interrupt: pass the stacked frame (MSP or PSP) and IPSR.
__attribute__((naked)) void Fault_Handler(void) {
  __asm__ volatile(
      "tst lr, #4\n\t"
      "ite eq\n\t"
      "mrseq r0, msp\n\t"
      "mrsne r0, psp\n\t"
      "mrs r1, ipsr\n\t"
      "b FaultReport\n\t");
}
#define NMI_Handler Fault_Handler
#define HardFault_Handler Fault_Handler
#define MemManage_Handler Fault_Handler
#define BusFault_Handler Fault_Handler
#define UsageFault_Handler Fault_Handler
#define SecureFault_Handler Fault_Handler
#define Default_Handler Fault_Handler

typedef void (*Vector)(void);
__attribute__((section(".vectors"), used)) const Vector g_vectors[16 + 32] = {
    (Vector)__stack_top,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    SecureFault_Handler,
    0,
    0,
    0,
    Default_Handler,
    Default_Handler,
    0,
    Default_Handler,
    SysTick_Handler,
    // External interrupts: none used.
    [16 ... 47] = Default_Handler,
};

#define SCB_VTOR (*(volatile uint32_t*)0xE000ED08u)
#define SCB_CPACR (*(volatile uint32_t*)0xE000ED88u)
#define SCB_SHCSR (*(volatile uint32_t*)0xE000ED24u)
#define STACK_PAINT 0xA5A5A5A5u
extern uint32_t __stack_bottom[];

void Reset_Handler(void) {
  SCB_VTOR = (uint32_t)(uintptr_t)g_vectors;
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  // CP10/CP11 full access: FPU (and MVE on Armv8.1-M). A core without an FPU (Cortex-M3) has
  // no CPACR: writing it would fault.
  SCB_CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  SCB_SHCSR |= (1u << 16) | (1u << 17) | (1u << 18);  // MemManage, BusFault, UsageFault on

  for (volatile uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;)
    *dst++ = *src++;
  for (volatile uint32_t* dst = __bss_start; dst < __bss_end;) *dst++ = 0;
  // Paint the stack below this frame for the harness' peak-use measurement.
  uint32_t* sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  for (volatile uint32_t* p = __stack_bottom; p < sp - 16;) *p++ = STACK_PAINT;

  initialise_monitor_handles();
  __libc_init_array();
  const int status = main();
  fflush(stdout);
  fflush(stderr);
  semihosting_exit(status);
}
