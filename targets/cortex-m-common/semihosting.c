#include "semihosting.h"

#include <stdint.h>

enum {
  kSysGetCmdline = 0x15,
  kSysExit = 0x18,
  kSysExitExtended = 0x20,
  kAdpStoppedApplicationExit = 0x20026,
};

static int SemihostingCall(int operation, void* argument) {
  register int r0 __asm__("r0") = operation;
  register void* r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

int semihosting_get_cmdline(char* buf, size_t size) {
  if (buf == NULL || size < 2) return -1;
  uintptr_t block[2] = {(uintptr_t)buf, (uintptr_t)(size - 1)};
  if (SemihostingCall(kSysGetCmdline, block) != 0) return -1;
  buf[block[1] < size ? block[1] : size - 1] = '\0';
  return 0;
}

void semihosting_exit(int status) {
  // SYS_EXIT_EXTENDED carries the status on 32-bit targets too (QEMU, Arm debuggers);
  // plain SYS_EXIT (status 0 or 1 only) is the fallback for hosts without it.
  uintptr_t block[2] = {kAdpStoppedApplicationExit, (uintptr_t)status};
  SemihostingCall(kSysExitExtended, block);
  SemihostingCall(kSysExit, (void*)(uintptr_t)kAdpStoppedApplicationExit);
  for (;;) {
  }
}
