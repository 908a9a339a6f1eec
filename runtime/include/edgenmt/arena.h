// A bump allocator over memory the caller owns, with a measuring mode.
//
// The same planning code runs twice: once over an Arena with no memory (measuring mode, base ==
// nullptr) to learn how many bytes a configuration needs, and once over the caller's memory in
// Init. Because both runs make the same requests in the same order, and offsets are aligned
// relative to a base that is itself aligned, used() after Init equals the measured number
// exactly (tests pin this).
//
// Ownership: the Arena never owns or frees memory; it only hands out pieces of [base, base +
// capacity). Everything handed out lives until the caller reuses or frees the whole block.
// There is no per-allocation free and no reset: plan once, then only compute.
//
// Alignment: every block starts at a multiple of kArenaAlignment (16 bytes, enough for NEON
// and SSE loads) from base; base itself must be kArenaAlignment-aligned (Translator::Init
// returns kInvalidArgument otherwise).
//
// Overflow: when a request does not fit (or its size computation overflows), Allocate returns
// nullptr, the arena marks itself overflowed and keeps counting, so one pass over a too-small
// arena still reports the full required size in used().
#ifndef EDGENMT_ARENA_H_
#define EDGENMT_ARENA_H_

#include <stddef.h>
#include <stdint.h>

namespace edgenmt {

constexpr size_t kArenaAlignment = 16;

class Arena {
 public:
  // Measuring arena: no memory, every Allocate returns nullptr and only counts.
  Arena() = default;
  // Arena over [base, base + capacity). base must be kArenaAlignment-aligned (checked by
  // IsAligned(); a misaligned base is treated as measuring-only and overflowed).
  Arena(void* base, size_t capacity)
      : base_(static_cast<uint8_t*>(base)), capacity_(capacity),
        overflowed_(base != nullptr && !IsAligned(base)) {}

  static bool IsAligned(const void* p) {
    return (reinterpret_cast<uintptr_t>(p) % kArenaAlignment) == 0;
  }

  // Returns a kArenaAlignment-aligned block of `bytes` bytes, or nullptr in measuring mode or
  // on overflow. A zero-byte request consumes nothing (the pointer must not be written).
  void* Allocate(size_t bytes) {
    const size_t offset = used_;
    size_t end = 0;
    if (size_overflow_ || bytes > SIZE_MAX - kArenaAlignment ||
        AddOverflows(offset, RoundUp(bytes), &end)) {
      size_overflow_ = true;
      overflowed_ = true;
      used_ = SIZE_MAX;
      return nullptr;
    }
    used_ = end;
    if (base_ == nullptr) return nullptr;
    if (end > capacity_) overflowed_ = true;
    if (overflowed_) return nullptr;
    return base_ + offset;
  }

  // Typed array of count * dims... elements of T, every product overflow-checked (sizes are
  // 32 bits on armv7 and Cortex-M: a wrapped product would under-allocate).
  template <typename T, typename... Dims>
  T* AllocateArray(size_t count, size_t dim, Dims... dims) {
    return AllocateArray<T>(CheckedSizeProduct(count, dim, dims...));
  }

  // a * b * ..., or SIZE_MAX when the product does not fit size_t (an allocation of SIZE_MAX
  // elements then fails and marks the size overflowed).
  static size_t CheckedSizeProduct(size_t a) { return a; }
  template <typename... Dims>
  static size_t CheckedSizeProduct(size_t a, size_t b, Dims... rest) {
    size_t product = 0;
    if (__builtin_mul_overflow(a, b, &product)) return SIZE_MAX;
    return CheckedSizeProduct(product, rest...);
  }

  // Typed array of `count` elements of T (count * sizeof(T) overflow-checked).
  template <typename T>
  T* AllocateArray(size_t count) {
    if (count != 0 && sizeof(T) > SIZE_MAX / count) {
      size_overflow_ = true;
      overflowed_ = true;
      used_ = SIZE_MAX;
      return nullptr;
    }
    return static_cast<T*>(Allocate(count * sizeof(T)));
  }

  // True when there is no memory behind the arena (planning only).
  bool measuring() const { return base_ == nullptr; }
  // True when some request did not fit; used() is then the size that would have been needed
  // (SIZE_MAX if even that computation overflowed).
  bool overflowed() const { return overflowed_; }
  // True when every block handed out so far is real memory that may be written.
  bool writable() const { return base_ != nullptr && !overflowed_; }
  // Bytes consumed so far, including alignment padding (a multiple of kArenaAlignment).
  size_t used() const { return used_; }
  size_t capacity() const { return capacity_; }

 private:
  static size_t RoundUp(size_t bytes) {
    return (bytes + (kArenaAlignment - 1)) & ~(kArenaAlignment - 1);
  }
  static bool AddOverflows(size_t a, size_t b, size_t* sum) {
    if (a > SIZE_MAX - b) return true;
    *sum = a + b;
    return false;
  }

  uint8_t* base_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
  bool overflowed_ = false;
  bool size_overflow_ = false;
};

}  // namespace edgenmt

#endif  // EDGENMT_ARENA_H_
