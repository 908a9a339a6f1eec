// Arm semihosting calls used by the test harness beyond newlib's (librdimon's) file I/O:
// the command line and an exit status that reaches the host (SYS_EXIT_EXTENDED). A debugger or
// QEMU (-semihosting-config enable=on) must be attached: on a board without one, BKPT 0xAB
// stops the core (HardFault without a debugger).
#ifndef EDGENMT_TARGETS_SEMIHOSTING_H_
#define EDGENMT_TARGETS_SEMIHOSTING_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// The command line the host passes (QEMU: -semihosting-config ...,arg=A,arg=B, or -kernel F
// -append "..."), NUL-terminated in buf; returns 0 on success, -1 if there is none.
int semihosting_get_cmdline(char* buf, size_t size);

// Ends the program with `status` as the emulator's (or debugger's) exit status. Never returns.
void semihosting_exit(int status) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif  // EDGENMT_TARGETS_SEMIHOSTING_H_
