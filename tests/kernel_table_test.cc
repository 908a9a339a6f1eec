// The kernel table generated from the one list of operations (kernels/kernel_operations.h):
// every function pointer of KernelTable is a listed operation, the names line up with the
// fields, the reference provides every operation that has a reference kernel, and a backend's
// table holds exactly what its spec names (absent otherwise, never the reference).
#include <stddef.h>

#include <string>

#include <gtest/gtest.h>

#include "kernels/kernel_table.h"
#include "kernels/kernel_table_builder.h"
#include "kernels/simd/simd_level.h"

namespace edgenmt {
namespace {

using AnyFunction = void (*)();

// Counted from the layout, not from the list: the pointers lie between backend and
// packed_min_rows, so a pointer added by hand to KernelTable breaks these.
constexpr size_t kPointersInTable =
    (offsetof(KernelTable, packed_min_rows) - alignof(AnyFunction)) / sizeof(AnyFunction);
static_assert(offsetof(KernelTable, backend) == 0, "backend first");
static_assert(kPointersInTable == static_cast<size_t>(kKernelOperationCount),
              "one listed operation per function pointer");
static_assert(sizeof(KernelTable) == sizeof(KernelTableShape), "nothing else in the table");

TEST(KernelTableTest, OperationCountIsTheList) {
  EXPECT_EQ(KernelOperationCount(), kKernelOperationCount);
  EXPECT_EQ(static_cast<size_t>(KernelOperationCount()), kPointersInTable);
  EXPECT_LT(kReferenceKernelOperationCount, kKernelOperationCount);
}

TEST(KernelTableTest, ReferenceHasEveryOperationWithAReferenceKernel) {
  const KernelTable& ref = ReferenceKernelTable();
  EXPECT_EQ(ref.backend, KernelBackend::kReference);
  for (int32_t i = 0; i < KernelOperationCount(); ++i) {
    const bool has_reference = i < kReferenceKernelOperationCount;
    EXPECT_EQ(KernelOperationPresent(ref, i), has_reference) << KernelOperationName(i);
    EXPECT_EQ(std::string(KernelOperationProvider(KernelBackend::kReference, i)),
              has_reference ? "reference" : "")
        << KernelOperationName(i);
  }
  EXPECT_EQ(ref.packed_min_rows, 0);
}

// Every level this CPU has names each operation with a reference kernel (its own or the
// reference's), packs nothing, and the products are its own.
TEST(KernelTableTest, EverySimdLevelIsComplete) {
  const KernelTable& ref = ReferenceKernelTable();
  for (SimdLevel level : kSimdLevels) {
    const KernelTable* simd = nullptr;
    if (GetSimdKernelTable(level, &simd) != Status::kOk) continue;
    EXPECT_EQ(simd->backend, KernelBackend::kSimd);
    for (int32_t i = 0; i < KernelOperationCount(); ++i) {
      EXPECT_EQ(KernelOperationPresent(*simd, i), i < kReferenceKernelOperationCount)
          << SimdLevelName(level) << " " << KernelOperationName(i);
    }
    EXPECT_NE(simd->fully_connected_f32, ref.fully_connected_f32) << SimdLevelName(level);
    EXPECT_NE(simd->fully_connected_s8_s32, ref.fully_connected_s8_s32) << SimdLevelName(level);
  }
}

struct EmptySpec {};

TEST(KernelTableTest, EmptySpecHasEveryOperationAbsent) {
  const KernelTable table = BuildKernelTable<EmptySpec>(KernelBackend::kSimd);
  EXPECT_EQ(table.backend, KernelBackend::kSimd);
  for (int32_t i = 0; i < KernelOperationCount(); ++i) {
    EXPECT_FALSE(KernelOperationPresent(table, i)) << KernelOperationName(i);
  }
  EXPECT_FALSE(KernelOperationPresent(table, -1));
  EXPECT_FALSE(KernelOperationPresent(ReferenceKernelTable(), KernelOperationCount()));
}

// A spec naming one operation: exactly that operation is present, under its own name, with
// the kernel named (so names, fields and the builder agree for every listed operation).
#define EDGENMT_ONE_OPERATION_SPEC(name, ret, params) \
  struct Only_##name {                                \
    EDGENMT_PROVIDE_REFERENCE_KERNEL(name);           \
  };
EDGENMT_REFERENCE_KERNEL_OPERATIONS(EDGENMT_ONE_OPERATION_SPEC)
#undef EDGENMT_ONE_OPERATION_SPEC

template <typename Spec>
void ExpectOnly(const char* name) {
  const KernelTable table = BuildKernelTable<Spec>(KernelBackend::kXnnpack);
  int32_t present = 0;
  for (int32_t i = 0; i < KernelOperationCount(); ++i) {
    if (!KernelOperationPresent(table, i)) continue;
    ++present;
    EXPECT_STREQ(KernelOperationName(i), name);
  }
  EXPECT_EQ(present, 1) << name;
}

TEST(KernelTableTest, SpecNamingOneOperationHasOnlyIt) {
  int32_t index = 0;
#define EDGENMT_EXPECT_ONLY(name, ret, params)       \
  ExpectOnly<Only_##name>(#name);                    \
  EXPECT_STREQ(KernelOperationName(index++), #name); \
  EXPECT_EQ(BuildKernelTable<Only_##name>(KernelBackend::kAuto).name, ReferenceKernelTable().name);
  EDGENMT_REFERENCE_KERNEL_OPERATIONS(EDGENMT_EXPECT_ONLY)
#undef EDGENMT_EXPECT_ONLY
  EXPECT_EQ(index, kReferenceKernelOperationCount);
}

}  // namespace
}  // namespace edgenmt
