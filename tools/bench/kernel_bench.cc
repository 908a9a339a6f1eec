// make bench's per-operation comparison: the float32 product over each weight matrix of a
// model, as every backend that computes it runs it (reference, simd, xnnpack packed at Init),
// for 1 row (greedy) and 5 rows (beam 5). This is the measurement `auto` is chosen from
// (docs/BACKENDS.md): one line per matrix and row count, then a summary line per backend.
// Then the int8-full Transformer's per-row operations at the shipped widths (d_model 128,
// feed-forward 512), reference against simd, on random Q11.20 rows from a fixed seed.
//
//   edgenmt-kernel-bench MODEL.f32.enmt [--min-ms N]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "edgenmt/model.h"
#include "kernels/kernel_table.h"

namespace {

using Clock = std::chrono::steady_clock;

// Fastest of 5 timed passes of `calls` calls each, in microseconds per call.
template <typename F>
double MicrosPerCall(F&& f, double min_ms) {
  int64_t calls = 1;
  for (;;) {  // grow until one pass takes min_ms / 5
    const auto t0 = Clock::now();
    for (int64_t i = 0; i < calls; ++i) f();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (ms >= min_ms / 5 || calls > (int64_t{1} << 24)) break;
    calls *= 2;
  }
  double best = 1e300;
  for (int pass = 0; pass < 5; ++pass) {
    const auto t0 = Clock::now();
    for (int64_t i = 0; i < calls; ++i) f();
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    best = std::min(best, us / static_cast<double>(calls));
  }
  return best;
}

// One line per int8-full Transformer row operation: us per call in each backend that names it.
template <typename Backends>
void BenchTransformerRows(const Backends& backends, double min_ms) {
  const int32_t d = 128, ffn = 512;
  std::vector<int32_t> x(ffn), gain(d, 1 << 20), shift(d, 0), out(ffn);
  std::vector<int8_t> y8(ffn), table(4 * d);
  std::vector<int16_t> residual(d, 0);
  uint32_t state = 12345;
  for (int32_t& v : x)
    v = static_cast<int32_t>((state = state * 1664525u + 1013904223u) >> 9) - (1 << 22);
  for (int8_t& v : table) v = static_cast<int8_t>((state = state * 1664525u + 1013904223u) >> 24);
  const int32_t ids[1] = {2}, row_multiplier[4] = {1 << 30, 1 << 30, 1 << 30, 1 << 30};
  const int32_t row_shift[4] = {10, 10, 10, 10};
  printf("kernel-bench: int8-full Transformer row operations, us per call (fastest of 5 passes)\n");
  printf("%-34s %11s %4s", "operation", "width", "");
  for (const auto& b : backends) printf(" %10s", b.name);
  printf("\n");
  struct Op {
    const char* name;
    int32_t width;
  };
  const Op ops[] = {{"layer_norm_s32", d},
                    {"gelu_s32_s8", ffn},
                    {"requantize_s32_s8 (relu)", ffn},
                    {"residual_add_s32_s16", d},
                    {"embedding_lookup_s8_s32", d}};
  for (int o = 0; o < 5; ++o) {
    printf("%-34s %11d %4s", ops[o].name, ops[o].width, "");
    for (const auto& b : backends) {
      const edgenmt::KernelTable& t = *b.table;
      double us = -1;
      switch (o) {
        case 0:
          if (t.layer_norm_s32)
            us = MicrosPerCall(
                [&] { t.layer_norm_s32(d, x.data(), 20, gain.data(), shift.data(), out.data()); },
                min_ms);
          break;
        case 1:
          if (t.gelu_s32_s8)
            us = MicrosPerCall([&] { t.gelu_s32_s8(ffn, x.data(), 15, y8.data()); }, min_ms);
          break;
        case 2:
          if (t.requantize_s32_s8)
            us = MicrosPerCall([&] { t.requantize_s32_s8(ffn, x.data(), 15, true, y8.data()); },
                               min_ms);
          break;
        case 3:
          if (t.residual_add_s32_s16)
            us = MicrosPerCall([&] { t.residual_add_s32_s16(d, x.data(), 13, residual.data()); },
                               min_ms);
          break;
        default:
          if (t.embedding_lookup_s8_s32)
            us = MicrosPerCall(
                [&] {
                  t.embedding_lookup_s8_s32(1, ids, table.data(), row_multiplier, row_shift, d,
                                            1518500250, 4, out.data(), d);
                },
                min_ms);
          break;
      }
      if (us < 0)
        printf(" %10s", "-");
      else
        printf(" %10.3f", us);
    }
    printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL.f32.enmt [--min-ms N]\n", argv[0]);
    return 1;
  }
  double min_ms = 50;
  if (argc == 4 && strcmp(argv[2], "--min-ms") == 0) min_ms = atof(argv[3]);
  std::ifstream in(argv[1], std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  void* buffer = aligned_alloc(64, (bytes.size() + 63) / 64 * 64);
  memcpy(buffer, bytes.data(), bytes.size());
  edgenmt::Model model;
  if (model.Load(buffer, bytes.size()) != edgenmt::Status::kOk ||
      model.config().scheme != edgenmt::QuantScheme::kFloat32) {
    fprintf(stderr, "%s: not a loadable float32 model\n", argv[1]);
    return 2;
  }
  struct Backend {
    const char* name;
    const edgenmt::KernelTable* table;
    double total[2];
  };
  std::vector<Backend> backends;
  for (edgenmt::KernelBackend b :
       {edgenmt::KernelBackend::kReference, edgenmt::KernelBackend::kSimd,
        edgenmt::KernelBackend::kXnnpack}) {
    const edgenmt::KernelTable* t = nullptr;
    if (edgenmt::GetKernelTable(b, &t) == edgenmt::Status::kOk) {
      backends.push_back({edgenmt::KernelBackendName(b), t, {0, 0}});
    } else {
      printf("kernel-bench: backend %s not built\n", edgenmt::KernelBackendName(b));
    }
  }
  const int32_t row_counts[2] = {1, 5};
  printf("kernel-bench: float32 product per weight matrix, us per call (fastest of 5 passes)\n");
  printf("%-34s %11s %4s", "matrix", "[out, in]", "rows");
  for (const Backend& b : backends) printf(" %10s", b.name);
  printf("  fastest\n");
  for (int32_t i = 0; i < model.num_tensors(); ++i) {
    edgenmt::TensorView v{};
    if (model.TensorAt(i, &v) != edgenmt::Status::kOk || v.dtype != edgenmt::DType::kF32 ||
        v.rank != 2 || strstr(v.name, "embed") != nullptr) {
      continue;
    }
    const int32_t out = v.shape[0], cols = v.shape[1];
    const float* w = static_cast<const float*>(v.data);
    std::vector<float> x(static_cast<size_t>(5) * cols), y(static_cast<size_t>(5) * out);
    for (size_t j = 0; j < x.size(); ++j) x[j] = static_cast<float>((j * 37) % 101) / 101.0f - 0.5f;
    for (int r = 0; r < 2; ++r) {
      const int32_t rows = row_counts[r];
      char shape[32];
      snprintf(shape, sizeof shape, "[%d, %d]", out, cols);
      printf("%-34s %11s %4d", v.name, shape, rows);
      double best = 1e300;
      const char* winner = "";
      for (Backend& b : backends) {
        double us = 0;
        if (b.table->pack_fully_connected_f32 != nullptr) {
          // The packed operator lives in an arena of exactly the counted size, as in a session.
          edgenmt::Arena measure;  // counts the bytes the packed operator needs
          const void* packed = nullptr;
          b.table->pack_fully_connected_f32(cols, out, w, &measure, &packed);
          const size_t bytes = measure.used();
          if (measure.overflowed() || bytes == 0 || bytes > (size_t{1} << 32)) {
            fprintf(stderr, "kernel-bench: %s could not size %s\n", b.name, v.name);
            return 3;
          }
          void* memory = aligned_alloc(edgenmt::kArenaAlignment, bytes);
          edgenmt::Arena arena(memory, bytes);
          if (b.table->pack_fully_connected_f32(cols, out, w, &arena, &packed) !=
                  edgenmt::Status::kOk ||
              packed == nullptr) {
            fprintf(stderr, "kernel-bench: %s could not pack %s\n", b.name, v.name);
            return 3;
          }
          us = MicrosPerCall(
              [&] {
                b.table->packed_fully_connected_f32(packed, rows, x.data(), nullptr, y.data());
              },
              min_ms);
          free(memory);
        } else {
          us = MicrosPerCall(
              [&] {
                b.table->fully_connected_f32(rows, cols, out, x.data(), w, nullptr, y.data(),
                                             false);
              },
              min_ms);
        }
        b.total[r] += us;
        printf(" %10.2f", us);
        if (us < best) best = us, winner = b.name;
      }
      printf("  %s\n", winner);
    }
  }
  for (int r = 0; r < 2; ++r) {
    printf("kernel-bench: all matrices, %d row(s):", row_counts[r]);
    for (const Backend& b : backends) printf(" %s %.2f us", b.name, b.total[r]);
    printf("\n");
  }
  BenchTransformerRows(backends, min_ms);
  free(buffer);
  return 0;
}
