// main() of the Cortex-M kernel-test firmware: the host's GoogleTest sources (tests/kernels_*.cc,
// tests/fixed_point_test.cc, ...) run on the board's core under qemu-system-arm, so every
// kernel of the backend this core has (Helium, DSP) is compared with the reference by the
// same tests as on every other target. Arguments come from the semihosting command line
// (e.g. --gtest_filter=...); the exit status (0: all passed) reaches the host.
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "semihosting.h"

namespace {
char g_cmdline[512];
char* g_argv[16];
}  // namespace

// The firmware links without the C runtime's start files (-nostartfiles: startup.c is the
// reset handler), which would define the handle that registers static destructors.
extern "C" {
void* __dso_handle = &__dso_handle;
}

// GoogleTest can create folders (for --gtest_output) and asks for the working directory when a
// test fails (for file paths); a bare-metal board has neither.
extern "C" int mkdir(const char*, mode_t) {
  errno = ENOSYS;
  return -1;
}
extern "C" char* getcwd(char* buf, size_t size) {
  if (buf == nullptr || size < 2) return nullptr;
  buf[0] = '/';
  buf[1] = '\0';
  return buf;
}

int main() {
  int argc = 0;
  if (semihosting_get_cmdline(g_cmdline, sizeof g_cmdline) == 0) {
    for (char* token = strtok(g_cmdline, " "); token != nullptr && argc < 15;
         token = strtok(nullptr, " ")) {
      g_argv[argc++] = token;
    }
  }
  static char program[] = "edgenmt_kernel_tests";
  if (argc == 0) g_argv[argc++] = program;
  g_argv[argc] = nullptr;
  testing::InitGoogleTest(&argc, g_argv);
  return RUN_ALL_TESTS();
}
