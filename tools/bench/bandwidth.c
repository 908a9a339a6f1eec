/* Read bandwidth of one core over a buffer of a given size: the denominators of `make bench`'s
 * floor (floor.py: the bytes each part of a word reads / bytes per second this core can read
 * from a working set of that part's size).
 *
 *   cc -O3 -march=native -o bandwidth tools/bench/bandwidth.c && ./bandwidth 102400 870000 1800000
 *
 * For each size (bytes): fills a 64-byte-aligned buffer once, then sums it repeatedly, for at
 * least 2 ms per pass, and prints the best of 100 passes as "SIZE GBPS" (10^9 bytes/s). Short
 * passes, many of them: on a shared machine nearly every long pass is interrupted by another
 * process (which also evicts the buffer), and 5 passes of 0.2 s read 30 % below the best of
 * 100 short ones, the rate of the core undisturbed, which is what the floor needs. A buffer
 * read over and over sits, after the first pass, in the smallest cache level that holds it,
 * as a weight matrix does that a loop reads once per character or per decoder step: what is
 * measured is the bandwidth of that level for that working set.
 *
 * The floor must not be above the true minimum time, so the bandwidth must not be below what
 * the hardware gives: the sum uses GCC vector types (no intrinsics, any target), 8 independent
 * accumulators so neither the adds nor their latency limit the loads, and it is run with two
 * vector widths (32 and 64 bytes: some cores load two 32-byte vectors per cycle but one 64-byte
 * one, others the reverse); the faster counts. The sum goes to stderr so the compiler cannot
 * drop the reads. bench.py compiles this (cc is in build-essential). */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef uint64_t v4u __attribute__((vector_size(32)));
typedef uint64_t v8u __attribute__((vector_size(64)));

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Sums n vectors of type V (n a multiple of 8) with 8 accumulators; returns one lane sum. */
#define DEFINE_SUM(NAME, V, LANES)                                             \
  __attribute__((noinline)) static uint64_t NAME(const void* data, size_t n) { \
    const V* p = (const V*)data;                                               \
    V a = {0}, b = {0}, c = {0}, d = {0}, e = {0}, f = {0}, g = {0}, h = {0};  \
    for (size_t i = 0; i < n; i += 8) {                                        \
      a += p[i];                                                               \
      b += p[i + 1];                                                           \
      c += p[i + 2];                                                           \
      d += p[i + 3];                                                           \
      e += p[i + 4];                                                           \
      f += p[i + 5];                                                           \
      g += p[i + 6];                                                           \
      h += p[i + 7];                                                           \
    }                                                                          \
    a = a + b + c + d + e + f + g + h;                                         \
    uint64_t s = 0;                                                            \
    for (int k = 0; k < (LANES); k++) s += a[k];                               \
    return s;                                                                  \
  }
DEFINE_SUM(sum32, v4u, 4)
DEFINE_SUM(sum64, v8u, 8)

/* Best GB/s of 100 passes of >= 2 ms, each summing the buffer of `bytes` bytes repeatedly. */
static double best_gbps(uint64_t (*sum)(const void*, size_t), size_t width, const void* buf,
                        size_t bytes, uint64_t* sink) {
  double best = 0.0;
  for (int pass = 0; pass < 100; pass++) {
    size_t reps = 0;
    double t0 = now(), t;
    do {
      *sink += sum(buf, bytes / width);
      reps++;
      t = now() - t0;
    } while (t < 0.002);
    double gbps = (double)reps * (double)bytes / t / 1e9;
    if (gbps > best) best = gbps;
  }
  return best;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SIZE_BYTES...\n", argv[0]);
    return 2;
  }
  uint64_t sink = 0;
  for (int k = 1; k < argc; k++) {
    /* Rounded up to whole 8 x 64-byte blocks (512 bytes): both sums read every byte. */
    size_t bytes = (size_t)strtoull(argv[k], NULL, 10);
    bytes = bytes < 512 ? 512 : (bytes + 511) / 512 * 512;
    uint64_t* buf = aligned_alloc(64, bytes);
    if (!buf) return 1;
    for (size_t i = 0; i < bytes / 8; i++) buf[i] = i * 0x9E3779B97F4A7C15ull;
    double g32 = best_gbps(sum32, 32, buf, bytes, &sink);
    double g64 = best_gbps(sum64, 64, buf, bytes, &sink);
    printf("%zu %.2f\n", bytes, g32 > g64 ? g32 : g64);
    fflush(stdout);
    free(buf);
  }
  fprintf(stderr, "checksum %llu\n", (unsigned long long)sink);
  return 0;
}
