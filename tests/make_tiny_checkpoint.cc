// Writes the tiny test checkpoint (tests/tiny_checkpoint.h: TinyConfig, TinyTensors seed 1) to
// a directory; used once to make tests/data/models/tiny-v1.f32.enmt (see its README.md).
#include <stdio.h>

#include "tiny_checkpoint.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make_tiny_checkpoint DIR\n");
    return 1;
  }
  edgenmt::testing::WriteTinyCheckpoint(argv[1]);
  return 0;
}
