/* The int8 multiply-accumulate peak of one core, for `make bench`'s batched rows (bench.py):
 * the best instruction this core has for u8 x s8 products summed into int32, in a loop of
 * independent accumulators (enough to hide the instruction's latency), on one thread.
 *
 *   x86-64 with AVX-512 VNNI: vpdpbusd zmm             64 MACs per instruction
 *   x86-64 with AVX2:         vpmaddubsw + vpmaddwd + vpaddd (ymm; the AVX2 int8 product
 *                             sequence)                32 MACs per 3 instructions
 *   aarch64 with dotprod:     sdot (v.4s, v.16b)       16 MACs per instruction
 *   anything else:            a plain C loop, which the compiler vectorises as it can
 * Compiled with -O3 -march=native (floor.compile_tool). Prints one line:
 *   MACS_PER_SECOND ISA
 * the best of 7 runs of about 50 ms each.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && (defined(__AVX512VNNI__) || defined(__AVX2__))
#include <immintrin.h>
#endif
#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
#include <arm_neon.h>
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile int32_t sink;
static volatile uint8_t seed = 3;

/* Ten named accumulators (an array would live in memory): latency (<= 5 cycles) x throughput
 * (<= 2 per cycle). The empty asm statements keep every accumulator in a register and the
 * operands opaque, so the compiler can neither hoist nor fold a product. */
#define ACC 10
#define EACH(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9)

#if defined(__x86_64__) && defined(__AVX512VNNI__) && defined(__AVX512F__)
static const char* kIsa = "avx512-vnni vpdpbusd";
static const double kMacsPerIteration = ACC * 64.0;
static void run(long iterations) {
  __m512i a = _mm512_set1_epi8((char)seed), b = _mm512_set1_epi8((char)(seed + 1));
#define INIT(k) __m512i acc##k = _mm512_set1_epi32(k);
#define STEP(k) acc##k = _mm512_dpbusd_epi32(acc##k, a, b);
#define KEEP(k) __asm__ volatile("" : "+v"(acc##k));
#define SUM(k) sum = _mm512_add_epi32(sum, acc##k);
  EACH(INIT)
  for (long i = 0; i < iterations; ++i) {
    __asm__ volatile("" : "+v"(a), "+v"(b));
    EACH(STEP)
    EACH(KEEP)
  }
  __m512i sum = _mm512_setzero_si512();
  EACH(SUM)
  sink = _mm512_reduce_add_epi32(sum);
}
#elif defined(__x86_64__) && defined(__AVX2__)
static const char* kIsa = "avx2 vpmaddubsw+vpmaddwd";
static const double kMacsPerIteration = ACC * 32.0;
static void run(long iterations) {
  __m256i a = _mm256_set1_epi8((char)seed), b = _mm256_set1_epi8((char)(seed + 1));
  __m256i ones = _mm256_set1_epi16(1);
#define INIT(k)                          \
  __m256i acc##k = _mm256_set1_epi32(k); \
  __m256i b##k = b;
#define STEP(k) \
  acc##k = _mm256_add_epi32(acc##k, _mm256_madd_epi16(_mm256_maddubs_epi16(a, b##k), ones));
#define KEEP(k) __asm__ volatile("" : "+x"(acc##k), "+x"(b##k));
#define SUM(k) sum = _mm256_add_epi32(sum, acc##k);
  EACH(INIT)
  for (long i = 0; i < iterations; ++i) {
    __asm__ volatile("" : "+x"(a), "+x"(ones));
    EACH(STEP)
    EACH(KEEP)
  }
  __m256i sum = _mm256_setzero_si256();
  EACH(SUM)
  int32_t lanes[8];
  memcpy(lanes, &sum, sizeof lanes);
  sink = lanes[0] + lanes[7];
}
#elif defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
static const char* kIsa = "neon sdot";
static const double kMacsPerIteration = ACC * 16.0;
static void run(long iterations) {
  int8x16_t a = vdupq_n_s8((int8_t)seed), b = vdupq_n_s8((int8_t)(seed + 1));
#define INIT(k) int32x4_t acc##k = vdupq_n_s32(k);
#define STEP(k) acc##k = vdotq_s32(acc##k, a, b);
#define KEEP(k) __asm__ volatile("" : "+w"(acc##k));
#define SUM(k) sum = vaddq_s32(sum, acc##k);
  EACH(INIT)
  for (long i = 0; i < iterations; ++i) {
    __asm__ volatile("" : "+w"(a), "+w"(b));
    EACH(STEP)
    EACH(KEEP)
  }
  int32x4_t sum = vdupq_n_s32(0);
  EACH(SUM)
  sink = vaddvq_s32(sum);
}
#else
static const char* kIsa = "portable C";
static const double kMacsPerIteration = 64.0;
static void run(long iterations) {
  int8_t a[64];
  uint8_t b[64];
  for (int k = 0; k < 64; ++k) a[k] = (int8_t)(seed + k), b[k] = (uint8_t)(seed * k);
  int32_t acc = 0;
  for (long i = 0; i < iterations; ++i) {
    __asm__ volatile("" : : "r"(a), "r"(b) : "memory");
    for (int k = 0; k < 64; ++k) acc += a[k] * b[k];
  }
  sink = acc;
}
#endif

int main(void) {
  long iterations = 1000;
  for (;;) { /* calibrate to about 50 ms */
    const double start = now();
    run(iterations);
    if (now() - start > 0.02) break;
    iterations *= 2;
  }
  iterations = (long)(iterations * 2.5);
  double best = 0.0;
  for (int r = 0; r < 7; ++r) {
    const double start = now();
    run(iterations);
    const double rate = kMacsPerIteration * (double)iterations / (now() - start);
    if (rate > best) best = rate;
  }
  printf("%.6g %s\n", best, kIsa);
  return 0;
}
