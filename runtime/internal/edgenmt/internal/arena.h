// A two-region bump allocator over memory the caller owns, with a measuring mode
// (tflite-micro's head and tail).
//
// Regions: persistent blocks (Allocate) grow from the start of the memory and live as long as
// the session; scratch blocks (AllocateScratch) grow down from its end and are shared between
// phases whose lifetimes never overlap. The planner names the phase each scratch block belongs
// to (SetScratchPhase): blocks of one phase never overlap each other, blocks of different phases
// reuse the same bytes, and the common phase (every scratch block requested before the first
// SetScratchPhase) is reserved for all phases. The scratch region is the largest phase plus the
// common part; used() = persistent + scratch.
//
// The same planning code runs twice: once over an Arena with no memory (measuring mode, base ==
// nullptr) to learn how many bytes a configuration needs, and once over the caller's memory in
// Init. Because both runs make the same requests in the same order, and offsets are aligned
// relative to aligned ends, used() after Init equals the measured number exactly (tests pin
// this).
//
// Ownership: the Arena never owns or frees memory; it only hands out pieces of [base, base +
// capacity). Everything handed out lives until the caller reuses or frees the whole block.
// There is no per-allocation free and no reset: plan once, then only compute. Scratch contents
// do not survive the phase: a phase must not expect what it wrote in an earlier phase.
//
// Alignment: every block starts at a multiple of kArenaAlignment (16 bytes, enough for NEON
// and SSE loads); base itself must be kArenaAlignment-aligned (Translator::Init returns
// kInvalidArgument otherwise); the capacity is used rounded down to that multiple.
//
// Overflow: when a request does not fit (or its size computation overflows), the allocation
// returns nullptr, the arena marks itself overflowed and keeps counting, so one pass over a
// too-small arena still reports the full required size in used().
#ifndef EDGENMT_ARENA_H_
#define EDGENMT_ARENA_H_

#include <stddef.h>
#include <stdint.h>

namespace edgenmt {

constexpr size_t kArenaAlignment = 16;

// Scratch phases of a session: the encoder's (one source) and the decoder step's (every step
// and the search around it). kCommon: scratch every phase uses (per-operation temporaries).
enum class ScratchPhase : uint8_t { kCommon = 0, kEncode = 1, kStep = 2 };

class Arena {
 public:
  // Measuring arena: no memory, every allocation returns nullptr and only counts.
  Arena() = default;
  // Arena over [base, base + capacity). base must be kArenaAlignment-aligned (checked by
  // IsAligned(); a misaligned base is treated as measuring-only and overflowed).
  Arena(void* base, size_t capacity)
      : base_(static_cast<uint8_t*>(base)),
        capacity_(capacity & ~(kArenaAlignment - 1)),
        overflowed_(base != nullptr && !IsAligned(base)) {}

  static bool IsAligned(const void* p) {
    return (reinterpret_cast<uintptr_t>(p) % kArenaAlignment) == 0;
  }

  // A persistent kArenaAlignment-aligned block of `bytes` bytes, or nullptr in measuring mode
  // or on overflow. A zero-byte request consumes nothing (the pointer must not be written).
  void* Allocate(size_t bytes) {
    const size_t offset = persistent_;
    size_t end = 0;
    if (!Reserve(offset, bytes, &end)) return nullptr;
    persistent_ = end;
    return Place(offset);
  }

  // A scratch block of the current phase (see SetScratchPhase), same contract as Allocate.
  void* AllocateScratch(size_t bytes) {
    const size_t offset = phase_used_[static_cast<int>(phase_)];
    size_t end = 0;
    if (!Reserve(offset, bytes, &end)) return nullptr;
    phase_used_[static_cast<int>(phase_)] = end;
    if (phase_ == ScratchPhase::kCommon) {
      for (size_t& used : phase_used_) used = used < end ? end : used;
    }
    scratch_ = end > scratch_ ? end : scratch_;
    if (base_ == nullptr || Check()) return nullptr;
    return base_ + capacity_ - end;  // offsets count down from the end
  }

  // Later scratch requests belong to `phase`. The common part is fixed once a phase is set
  // (asking for common scratch after that is a planning error: the arena reports overflow).
  void SetScratchPhase(ScratchPhase phase) {
    if (phase == ScratchPhase::kCommon && phases_started_) {
      overflowed_ = true;
      return;
    }
    phases_started_ = phases_started_ || phase != ScratchPhase::kCommon;
    phase_ = phase;
  }

  // Typed arrays of count * dims... elements of T, every product overflow-checked (sizes are
  // 32 bits on armv7 and Cortex-M: a wrapped product would under-allocate).
  template <typename T, typename... Dims>
  T* AllocateArray(size_t count, Dims... dims) {
    return static_cast<T*>(
        Allocate(ArrayBytes<T>(CheckedSizeProduct(count, static_cast<size_t>(dims)...))));
  }
  template <typename T, typename... Dims>
  T* AllocateScratchArray(size_t count, Dims... dims) {
    return static_cast<T*>(
        AllocateScratch(ArrayBytes<T>(CheckedSizeProduct(count, static_cast<size_t>(dims)...))));
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

  // True when there is no memory behind the arena (planning only).
  bool measuring() const { return base_ == nullptr; }
  // True when some request did not fit; used() is then the size that would have been needed
  // (SIZE_MAX if even that computation overflowed).
  bool overflowed() const { return overflowed_; }
  // True when every block handed out so far is real memory that may be written.
  bool writable() const { return base_ != nullptr && !overflowed_; }
  // Bytes of both regions, including alignment padding (a multiple of kArenaAlignment).
  size_t used() const {
    return size_overflow_ || persistent_ > SIZE_MAX - scratch_ ? SIZE_MAX : persistent_ + scratch_;
  }
  size_t persistent_bytes() const { return persistent_; }
  size_t scratch_bytes() const { return scratch_; }
  size_t capacity() const { return capacity_; }

 private:
  static size_t RoundUp(size_t bytes) {
    return (bytes + (kArenaAlignment - 1)) & ~(kArenaAlignment - 1);
  }
  template <typename T>
  static size_t ArrayBytes(size_t count) {
    return count != 0 && sizeof(T) > SIZE_MAX / count ? SIZE_MAX : count * sizeof(T);
  }
  // end = offset + the aligned size; false (and overflowed) when that overflows.
  bool Reserve(size_t offset, size_t bytes, size_t* end) {
    if (size_overflow_ || bytes > SIZE_MAX - kArenaAlignment ||
        offset > SIZE_MAX - RoundUp(bytes)) {
      size_overflow_ = true;
      overflowed_ = true;
      return false;
    }
    *end = offset + RoundUp(bytes);
    return true;
  }
  // True (and overflowed) when the two regions no longer fit the capacity.
  bool Check() {
    if (used() > capacity_) overflowed_ = true;
    return overflowed_;
  }
  void* Place(size_t offset) {
    if (base_ == nullptr || Check()) return nullptr;
    return base_ + offset;
  }

  uint8_t* base_ = nullptr;
  size_t capacity_ = 0;
  size_t persistent_ = 0;
  size_t scratch_ = 0;  // the largest phase, common part included
  size_t phase_used_[3] = {0, 0, 0};
  ScratchPhase phase_ = ScratchPhase::kCommon;
  bool phases_started_ = false;
  bool overflowed_ = false;
  bool size_overflow_ = false;
};

}  // namespace edgenmt

#endif  // EDGENMT_ARENA_H_
