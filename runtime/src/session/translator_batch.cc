// Translator::TranslateBatch (edgenmt/translator.h): up to max_batch sources in flight over one
// decoder, each with its own search, its rows kept together in the decoder (slot order), and
// continuous batching: a finished source's slot takes the next waiting one before the next step.
// Without EDGENMT_BATCH (microcontrollers) only max_batch 1 exists: the sources one by one.
#include <new>
#include <string.h>

#include "edgenmt/translator.h"
#include "profile_scope.h"
#include "session/translator_state.h"

namespace edgenmt {

// Slot i searches with its own BeamSearch (slot 0 with the State's own). A session of
// max_batch 1 plans exactly what Translate needs and nothing more (TranslateBatch then runs the
// sources one after the other); with more slots a source is encoded while others are
// mid-search, so the searches keep their state in persistent memory (the encoder's scratch
// phase reuses the step's bytes).
Status Translator::State::PrepareBatch(const SessionLimits& limits, int32_t vocab_size,
                                       bool model_attention, Arena* arena, ErrorDetail* detail) {
  if (limits.max_batch == 1) {
    return search.Prepare(limits.max_beam, limits.max_nbest, limits.max_tgt_len, limits.max_src_len,
                          vocab_size, model_attention, limits.attention, false, arena, detail);
  }
#if defined(EDGENMT_WITH_BATCH)
  const size_t batch = static_cast<size_t>(limits.max_batch);
  const bool persistent = true;
  searches = arena->AllocateArray<BeamSearch*>(batch);
  BeamSearch measuring;  // stands in for slots a measuring (or too small) arena cannot hold
  for (size_t i = 0; i < batch; ++i) {
    BeamSearch* slot_search = &search;
    if (i > 0) {
      void* memory = arena->Allocate(sizeof(BeamSearch));
      slot_search = memory != nullptr ? new (memory) BeamSearch() : &measuring;
    }
    if (searches != nullptr) searches[i] = slot_search;
    EDGENMT_RETURN_IF_ERROR(slot_search->Prepare(
        limits.max_beam, limits.max_nbest, limits.max_tgt_len, limits.max_src_len, vocab_size,
        model_attention, limits.attention, persistent, arena, detail));
  }
  slots = arena->AllocateArray<BatchSlot>(batch);
  active = arena->AllocateArray<int32_t>(batch);
  free_slots = arena->AllocateArray<int32_t>(batch);
  blocks = arena->AllocateArray<RowBlock>(batch);
  tokens = arena->AllocateArray<int32_t>(batch, static_cast<size_t>(limits.max_beam));
  parents = arena->AllocateArray<int32_t>(batch, static_cast<size_t>(limits.max_beam));
  admitted = arena->AllocateArray<int32_t>(batch);
  admitted_ids = arena->AllocateArray<const int32_t*>(batch);
  admitted_lens = arena->AllocateArray<int32_t>(batch);
  return Status::kOk;
#else
  return detail->Fail(Status::kUnsupported, "this build decodes one source at a time");
#endif
}

Status Translator::TranslateBatch(const char* const* sources, const size_t* lengths, int32_t count,
                                  const TranslateOptions& options, TranslateBatchCallback callback,
                                  void* user) {
  if (!initialized_) {
    return Fail(Status::kNotInitialized, "TranslateBatch before a successful Init");
  }
  if (count < 0 || callback == nullptr ||
      (count > 0 && (sources == nullptr || lengths == nullptr))) {
    return Fail(Status::kInvalidArgument, "null sources, lengths or callback, or count < 0");
  }
  for (int32_t i = 0; i < count; ++i) {
    if (sources[i] == nullptr && lengths[i] > 0) {
      return Fail(Status::kInvalidArgument, "source ", i, " is null with length ", lengths[i]);
    }
  }
  EDGENMT_RETURN_IF_ERROR(CheckOptions(options));
  if (limits_.max_batch == 1) {
    for (int32_t i = 0; i < count; ++i) {
      TranslationResult result;
      const Status status = Translate(sources[i], lengths[i], options, &result);
      callback(user, i, status, status == Status::kOk ? &result : nullptr, error_detail_);
    }
    error_detail_[0] = '\0';
    return Status::kOk;
  }
#if defined(EDGENMT_WITH_BATCH)
  State& s = *state_;
  SequenceDecoder& decoder = s.decoder;
  const int32_t batch = limits_.max_batch;
  const int64_t max_src = limits_.max_src_len;
  const int64_t V = decoder.vocab_size();
  const bool exact = decoder.log_probs_q16() != nullptr;
  for (int32_t i = 0; i < batch; ++i) s.free_slots[i] = batch - 1 - i;  // slot 0 first
  int32_t num_free = batch;
  int32_t num_active = 0;
  int32_t rows = 0;
  int32_t next = 0;
  for (;;) {
    // Admit waiting sources into free slots, encoded together; their initial rows go after
    // the live ones.
    // Sources join in groups of at least a quarter of the batch (or whatever is left), so the
    // encoder runs several together; meanwhile the others keep their rows busy.
    int32_t num_admitted = 0;
    const int32_t group = batch / 4 > 1 ? batch / 4 : 1;
    const bool admit = num_free >= group || num_active == 0 || count - next <= num_free;
    while (admit && num_free > 0 && next < count) {
      const int32_t index = next++;
      const int32_t slot = s.free_slots[num_free - 1];
      int32_t* ids = s.src_ids + slot * max_src;
      int32_t src_len = 0, unknown = 0;
      const Status status = TokenizeInto(sources[index], lengths[index], ids, &src_len, &unknown);
      if (status != Status::kOk) {
        callback(user, index, status, nullptr, error_detail_);
        continue;
      }
      --num_free;
      s.slots[slot] = BatchSlot{index, src_len, unknown, rows + num_admitted};
      s.admitted[num_admitted] = slot;
      s.admitted_ids[num_admitted] = ids;
      s.admitted_lens[num_admitted] = src_len;
      ++num_admitted;
    }
    if (num_admitted > 0) {
      {
        ProfileScope encoder(ProfileStage::kEncoder);
        decoder.EncodeSources(num_admitted, s.admitted, s.admitted_ids, s.admitted_lens, rows);
      }
      for (int32_t k = 0; k < num_admitted; ++k) {
        const int32_t slot = s.admitted[k];
        s.searches[slot]->Begin(options, s.admitted_lens[k], decoder.vocab_size(), decoder.bos_id(),
                                decoder.eos_id());
        s.active[num_active++] = slot;
      }
      rows += num_admitted;
    }
    if (num_active == 0) break;

    for (int32_t a = 0; a < num_active; ++a) {
      const BatchSlot& slot = s.slots[s.active[a]];
      const BeamSearch& search = *s.searches[s.active[a]];
      memcpy(s.tokens + slot.row_begin, search.live_tokens(),
             sizeof(int32_t) * static_cast<size_t>(search.live()));
      s.blocks[a] = RowBlock{s.active[a], slot.row_begin, search.live(), search.steps()};
    }
    {
      ProfileScope step(ProfileStage::kDecoderStep);
      decoder.StepBlocks(s.tokens, s.blocks, num_active);
    }

    // Each search takes its rows' outputs; the survivors' rows are packed in slot order.
    const float* attention = decoder.attention();
    const int64_t attention_stride = decoder.attention_row_stride();
    int32_t kept_active = 0;
    int32_t new_rows = 0;
    for (int32_t a = 0; a < num_active; ++a) {
      const int32_t slot_index = s.active[a];
      BatchSlot& slot = s.slots[slot_index];
      BeamSearch& search = *s.searches[slot_index];
      const int64_t first = slot.row_begin;
      const float* slot_attention =
          attention != nullptr ? attention + first * attention_stride : nullptr;
      const bool done = exact ? search.Advance(decoder.log_probs_q16() + first * V, slot_attention)
                              : search.Advance(decoder.log_probs() + first * V, slot_attention);
      if (done) {
        TranslationResult result;
        const int32_t* ids = s.src_ids + slot_index * max_src;
        if (s.BuildResult(*model_, search, options, ids, slot.src_len, &result) != Status::kOk) {
          Fail(Status::kInternal, "detokenization failed");
          callback(user, slot.source, Status::kInternal, nullptr, error_detail_);
        } else {
          result.src_unknown = slot.src_unknown;
          error_detail_[0] = '\0';
          callback(user, slot.source, Status::kOk, &result, error_detail_);
        }
        s.free_slots[num_free++] = slot_index;
        continue;
      }
      for (int32_t r = 0; r < search.live(); ++r) {
        s.parents[new_rows + r] = slot.row_begin + search.parents()[r];
      }
      slot.row_begin = new_rows;
      new_rows += search.live();
      s.active[kept_active++] = slot_index;
    }
    num_active = kept_active;
    decoder.Reorder(s.parents, new_rows);
    rows = new_rows;
  }
  error_detail_[0] = '\0';
  return Status::kOk;
#else
  return Fail(Status::kInternal, "batching is not built");  // Init refuses max_batch > 1
#endif
}

}  // namespace edgenmt
