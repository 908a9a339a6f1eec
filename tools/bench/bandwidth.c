/* Read bandwidth of one core over a buffer of a given size: the denominator of `make bench`'s
 * floor (weight bytes a word must read / bytes per second this core can read).
 *
 *   cc -O3 -march=native -o bandwidth tools/bench/bandwidth.c && ./bandwidth 2000000 7800000
 *
 * For each size (bytes): fills a 64-byte-aligned buffer once, then sums it as 64-bit words
 * repeatedly (4 independent accumulators so the adds never limit the loads; -O3 vectorises the
 * loop into full-width loads), for at least 0.2 s per pass, and prints the best of 5 passes as
 * "SIZE GBPS" (10^9 bytes/s). A buffer the size of the model's weights is what a decoder step
 * streams through: after the first word it sits in whatever cache level holds it, which is
 * exactly the bandwidth a weight-bound step can get. The sum is printed to stderr so the
 * compiler cannot drop the reads. bench.py compiles this (cc is in build-essential). */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t sum_words(const uint64_t* p, size_t n) {
  uint64_t a = 0, b = 0, c = 0, d = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    a += p[i];
    b += p[i + 1];
    c += p[i + 2];
    d += p[i + 3];
  }
  for (; i < n; i++) a += p[i];
  return a + b + c + d;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SIZE_BYTES...\n", argv[0]);
    return 2;
  }
  uint64_t sink = 0;
  for (int k = 1; k < argc; k++) {
    size_t bytes = (size_t)strtoull(argv[k], NULL, 10);
    size_t n = (bytes + 7) / 8;
    if (n == 0) n = 1;
    uint64_t* buf = aligned_alloc(64, ((n * 8 + 63) / 64) * 64);
    if (!buf) return 1;
    for (size_t i = 0; i < n; i++) buf[i] = i * 0x9E3779B97F4A7C15ull;
    double best = 0.0;
    for (int pass = 0; pass < 5; pass++) {
      size_t reps = 0;
      double t0 = now(), t;
      do {
        sink += sum_words(buf, n);
        reps++;
        t = now() - t0;
      } while (t < 0.2);
      double gbps = (double)reps * (double)n * 8.0 / t / 1e9;
      if (gbps > best) best = gbps;
    }
    printf("%zu %.2f\n", n * 8, best);
    fflush(stdout);
    free(buf);
  }
  fprintf(stderr, "checksum %llu\n", (unsigned long long)sink);
  return 0;
}
