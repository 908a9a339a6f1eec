#include "edgenmt/translator.h"

#include <new>
#include <string.h>

#include "edgenmt/tokenizer.h"
#include "session/translator_state.h"
#include "profile_scope.h"

namespace edgenmt {
namespace {

// Fills zeros from the model and checks ranges. kOk or a status with detail.
Status ResolveLimits(const Model& model, const SessionLimits& in, SessionLimits* out,
                     ErrorDetail* detail) {
  *out = in;
  const ModelConfig& c = model.config();
  if (out->max_src_len == 0) out->max_src_len = c.max_src_len;
  if (out->max_tgt_len == 0) out->max_tgt_len = model.decoding_defaults().max_len;
  if (out->max_src_len < 1 || out->max_tgt_len < 1 || out->max_beam < 1 || out->max_nbest < 1 ||
      out->max_nbest > out->max_beam || out->max_batch < 1) {
    return detail->Fail(Status::kInvalidArgument,
                        "limits need max_src_len, max_tgt_len, "
                        "max_beam, max_batch >= 1 and 1 <= max_nbest <= max_beam");
  }
  if (out->max_batch > kMaxBatch) {
    return detail->Fail(Status::kLimitExceeded, "max_batch ", out->max_batch, " exceeds ",
                        kMaxBatch);
  }
#if !defined(EDGENMT_WITH_BATCH)
  if (out->max_batch > 1) {
    return detail->Fail(Status::kUnsupported, "max_batch ", out->max_batch,
                        ": this build decodes one source at a time (EDGENMT_BATCH=OFF)");
  }
#endif
  if (out->max_src_len > c.max_src_len) {
    return detail->Fail(Status::kLimitExceeded, "max_src_len ", out->max_src_len,
                        " exceeds the model's max_src_len ", c.max_src_len);
  }
  if (out->max_tgt_len > kMaxModelDim || out->max_beam > kMaxDecodingBeam) {
    return detail->Fail(Status::kLimitExceeded, "max_tgt_len <= ", kMaxModelDim,
                        " and max_beam <= ", kMaxDecodingBeam, " required");
  }
  if (c.model_type == ModelType::kTransformer && out->max_tgt_len > c.transformer.max_tgt_len) {
    return detail->Fail(Status::kLimitExceeded, "max_tgt_len ", out->max_tgt_len,
                        " exceeds the model's target positions (max_tgt_len ",
                        c.transformer.max_tgt_len, ")");
  }
  if (out->attention && !c.has_attention()) {
    return detail->Fail(Status::kUnsupported,
                        "attention history requested but the model "
                        "has attention none");
  }
  return Status::kOk;
}

// Runs the plan: State first (placement-new into the arena when it has memory for it, else
// into `fallback`, so measuring and too-small arenas run the very same Prepare calls).
Status Plan(const Model& model, const SessionLimits& limits, Arena* arena,
            Translator::State* fallback, Translator::State** out, ErrorDetail* detail) {
  void* memory = arena->Allocate(sizeof(Translator::State));
  Translator::State* state = memory != nullptr ? new (memory) Translator::State() : fallback;
  if (state == nullptr) return detail->Fail(Status::kInternal, "no memory for the session");
  *out = state;
  EDGENMT_RETURN_IF_ERROR(state->Prepare(model, limits, arena, detail));
  if (arena->used() == SIZE_MAX) {  // a size product overflowed (32-bit size_t)
    return detail->Fail(Status::kLimitExceeded, "the arena for these limits exceeds the ",
                        sizeof(size_t) * 8, "-bit address space");
  }
  return Status::kOk;
}

}  // namespace

Status Translator::State::Prepare(const Model& model, const SessionLimits& limits, Arena* arena,
                                  ErrorDetail* detail) {
  if (GetKernelTable(limits.backend, &kernels) != Status::kOk) {
    return detail->Fail(Status::kUnsupported, "kernel backend ", KernelBackendName(limits.backend),
                        " is not compiled into this build");
  }
  const ModelConfig& c = model.config();
  DecoderLimits shape;
  shape.max_src_len = limits.max_src_len;
  shape.max_rows = limits.max_beam * limits.max_batch;
  shape.max_tgt_len = limits.max_tgt_len;
  shape.max_sources = limits.max_batch;
  EDGENMT_RETURN_IF_ERROR(decoder.Prepare(model, kernels, shape, arena, detail));
  EDGENMT_RETURN_IF_ERROR(PrepareBatch(limits, c.tgt_vocab_size, c.has_attention(), arena, detail));
  src_ids = arena->AllocateArray<int32_t>(static_cast<size_t>(limits.max_batch),
                                          static_cast<size_t>(limits.max_src_len));
  hypotheses = arena->AllocateArray<Hypothesis>(static_cast<size_t>(limits.max_nbest));
  text_stride = MaxDetokenizedBytes(model, limits.max_tgt_len);
  if (text_stride > SIZE_MAX - kArenaAlignment) {
    return detail->Fail(Status::kLimitExceeded, "output text buffer of max_tgt_len ",
                        limits.max_tgt_len, " tokens exceeds the address space");
  }
  // Round the stride so every hypothesis' text starts aligned (keeps the plan simple).
  text_stride = (text_stride + kArenaAlignment - 1) & ~(kArenaAlignment - 1);
  text = arena->AllocateArray<char>(static_cast<size_t>(limits.max_nbest), text_stride);
  return Status::kOk;
}

namespace {
// The only place a State lives on the stack: planning without memory for it (measuring, or an
// arena smaller than the State). noinline keeps it off the stack of Init's normal path; the
// build's 1 KiB frame limit is lifted for this function alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstack-usage="
__attribute__((noinline)) Status MeasurePlan(const Model& model, const SessionLimits& limits,
                                             ArenaBytes* out, ErrorDetail* detail) {
  if (!model.loaded()) return detail->Fail(Status::kNotInitialized, "model not loaded");
  SessionLimits resolved;
  EDGENMT_RETURN_IF_ERROR(ResolveLimits(model, limits, &resolved, detail));
  Arena measuring;
  Translator::State local;
  Translator::State* state = nullptr;
  EDGENMT_RETURN_IF_ERROR(Plan(model, resolved, &measuring, &local, &state, detail));
  out->total = measuring.used();
  out->persistent = measuring.persistent_bytes();
  out->scratch = measuring.scratch_bytes();
  return Status::kOk;
}
#pragma GCC diagnostic pop
}  // namespace

Status RequiredArenaBytes(const Model& model, const SessionLimits& limits, size_t* out_bytes,
                          char* detail, size_t detail_size) {
  if (out_bytes == nullptr) {
    ErrorDetail why(detail, detail_size);
    return why.Fail(Status::kInvalidArgument, "null out_bytes");
  }
  *out_bytes = 0;
  ArenaBytes bytes;
  const Status status = RequiredArenaBytes(model, limits, &bytes, detail, detail_size);
  *out_bytes = bytes.total;
  return status;
}

Status RequiredArenaBytes(const Model& model, const SessionLimits& limits, ArenaBytes* out,
                          char* detail, size_t detail_size) {
  ErrorDetail why(detail, detail_size);  // clears the caller's text
  if (out == nullptr) return why.Fail(Status::kInvalidArgument, "null out");
  *out = ArenaBytes{};
  const Status status = MeasurePlan(model, limits, out, &why);
  if (status != Status::kOk) {
    *out = ArenaBytes{};
  }
  return status;
}

Status Translator::Init(const Model* model, void* arena, size_t arena_bytes,
                        const SessionLimits& limits) {
  initialized_ = false;
  state_ = nullptr;
  model_ = model;
  arena_bytes_used_ = 0;
  arena_persistent_bytes_ = 0;
  arena_scratch_bytes_ = 0;
  required_arena_bytes_ = 0;
  ErrorDetail detail(error_detail_, sizeof(error_detail_));
  Status status = Status::kOk;
  if (model == nullptr || arena == nullptr) {
    status = detail.Fail(Status::kInvalidArgument, "null model or arena");
  } else if (!Arena::IsAligned(arena)) {
    status =
        detail.Fail(Status::kInvalidArgument, "arena must be ", kArenaAlignment, "-byte aligned");
  } else if (!model->loaded()) {
    status = detail.Fail(Status::kNotInitialized, "model not loaded");
  } else {
    status = ResolveLimits(*model, limits, &limits_, &detail);
  }
  const size_t state_bytes = (sizeof(State) + kArenaAlignment - 1) & ~(kArenaAlignment - 1);
  if (status == Status::kOk && arena_bytes < state_bytes) {
    // Too small even for the session object: measure what is needed (State on the stack).
    ArenaBytes needed;
    status = MeasurePlan(*model, limits_, &needed, &detail);
    if (status == Status::kOk) {
      required_arena_bytes_ = needed.total;
      status = detail.Fail(Status::kArenaTooSmall, "arena too small: ", arena_bytes,
                           " bytes given, ", needed.total, " required");
    }
  } else if (status == Status::kOk) {
    // The State goes first into the caller's arena: no session object on the stack.
    Arena session_arena(arena, arena_bytes);
    State* state = nullptr;
    status = Plan(*model, limits_, &session_arena, nullptr, &state, &detail);
    if (status == Status::kOk) {
      required_arena_bytes_ = session_arena.used();
      if (session_arena.overflowed()) {
        status = detail.Fail(Status::kArenaTooSmall, "arena too small: ", arena_bytes,
                             " bytes given, ", session_arena.used(), " required");
      } else {
        state_ = state;
        arena_bytes_used_ = session_arena.used();
        arena_persistent_bytes_ = session_arena.persistent_bytes();
        arena_scratch_bytes_ = session_arena.scratch_bytes();
        initialized_ = true;
      }
    }
  }
  // `detail` wrote any failure straight into error_detail_.
  if (status == Status::kOk) detail.Clear();
  return status;
}

Status Translator::CheckOptions(const TranslateOptions& o) {
  // The session's sizes first: Init keeps every limit within the format's caps, so a beam or
  // max_len past a cap is reported as beyond the session (kLimitExceeded); then the range check
  // shared with the model file and the converter (kInvalidArgument).
  if (o.beam > limits_.max_beam || o.nbest > limits_.max_nbest || o.max_len > limits_.max_tgt_len) {
    return Fail(Status::kLimitExceeded, "beam ", o.beam, "/", limits_.max_beam, ", nbest ", o.nbest,
                "/", limits_.max_nbest, ", max_len ", o.max_len, "/", limits_.max_tgt_len,
                " (option/session limit)");
  }
  EDGENMT_RETURN_IF_ERROR(
      ValidateDecodingOptions(o, "options.", error_detail_, sizeof(error_detail_)));
  if (o.return_attention && !limits_.attention) {
    return Fail(Status::kLimitExceeded, "return_attention needs SessionLimits::attention");
  }
  return Status::kOk;
}

Status Translator::CheckSource(const int32_t* src_ids, int32_t src_len) {
  if (src_len == 0) return Fail(Status::kSourceEmpty, "source has no tokens");
  if (src_len > limits_.max_src_len) {
    return Fail(Status::kSourceTooLong, "source has ", src_len, " tokens, max_src_len is ",
                limits_.max_src_len);
  }
  const int32_t vocab = model_->config().src_vocab_size;
  for (int32_t i = 0; i < src_len; ++i) {
    if (src_ids[i] < 0 || src_ids[i] >= vocab) {
      return Fail(Status::kSourceTokenOutOfRange, "source id ", src_ids[i], " at ", i,
                  " outside [0, ", vocab, ")");
    }
  }
  return Status::kOk;
}

Status Translator::Translate(const char* utf8, size_t len, const TranslateOptions& options,
                             TranslationResult* result) {
  if (!initialized_) return Fail(Status::kNotInitialized, "Translate before a successful Init");
  if (result == nullptr || (utf8 == nullptr && len > 0)) {
    return Fail(Status::kInvalidArgument, "null result or text");
  }
  *result = TranslationResult();
  EDGENMT_RETURN_IF_ERROR(CheckOptions(options));
  int32_t num_ids = 0, num_unknown = 0;
  EDGENMT_RETURN_IF_ERROR(TokenizeInto(utf8, len, state_->src_ids, &num_ids, &num_unknown));
  EDGENMT_RETURN_IF_ERROR(TranslateIds(state_->src_ids, num_ids, options, result));
  result->src_unknown = num_unknown;
  return Status::kOk;
}

Status Translator::TokenizeInto(const char* utf8, size_t len, int32_t* ids, int32_t* num_ids,
                                int32_t* num_unknown) {
  int32_t seen = 0;
  const Status status =
      TokenizeSource(*model_, utf8, len, ids, limits_.max_src_len, num_ids, num_unknown, &seen);
  if (status == Status::kSourceTooLong) {
    return Fail(status, "source has ", seen, " tokens, max_src_len is ", limits_.max_src_len);
  } else if (status == Status::kSourceInvalidUtf8) {
    return Fail(status, "source is not valid UTF-8");
  } else if (status == Status::kSourceEmpty) {
    return Fail(status, "source has no tokens");
  } else if (status != Status::kOk) {
    return Fail(status, "tokenization failed");
  }
  return Status::kOk;
}

Status Translator::TranslateIds(const int32_t* src_ids, int32_t src_len,
                                const TranslateOptions& options, TranslationResult* result) {
  if (!initialized_) return Fail(Status::kNotInitialized, "TranslateIds before a successful Init");
  if (result == nullptr || (src_ids == nullptr && src_len > 0) || src_len < 0) {
    return Fail(Status::kInvalidArgument, "null result or ids, or negative length");
  }
  *result = TranslationResult();
  EDGENMT_RETURN_IF_ERROR(CheckOptions(options));
  EDGENMT_RETURN_IF_ERROR(CheckSource(src_ids, src_len));
  State& s = *state_;
  if (src_ids != s.src_ids)
    memmove(s.src_ids, src_ids, sizeof(int32_t) * static_cast<size_t>(src_len));

  {
    ProfileScope encoder(ProfileStage::kEncoder);
    s.decoder.Encode(s.src_ids, src_len);
  }
  {
    ProfileScope search(ProfileStage::kSearch);
    s.search.Run(&s.decoder, options);
  }

  if (s.BuildResult(*model_, s.search, options, s.src_ids, src_len, result) != Status::kOk) {
    return Fail(Status::kInternal, "detokenization failed");
  }
  error_detail_[0] = '\0';
  return Status::kOk;
}

Status Translator::State::BuildResult(const Model& model, const BeamSearch& finished,
                                      const TranslateOptions& options, const int32_t* source_ids,
                                      int32_t src_len, TranslationResult* result) {
  for (int32_t n = 0; n < finished.num_results(); ++n) {
    const SearchResult& r = finished.result(n);
    Hypothesis& h = hypotheses[n];
    h.ids = r.ids;
    h.length = r.length;
    h.score = r.score;
    h.log_prob = r.log_prob;
    h.ended_with_eos = r.ended_with_eos;
    h.attention = options.return_attention ? r.attention : nullptr;
    h.attention_steps = options.return_attention ? r.attention_steps : 0;
    char* out = text + static_cast<size_t>(n) * text_stride;
    size_t text_length = 0;
    EDGENMT_RETURN_IF_ERROR(
        DetokenizeTarget(model, r.ids, r.length, out, text_stride, &text_length));
    h.text = out;
    h.text_length = text_length;
  }
  result->num_hypotheses = finished.num_results();
  result->hypotheses = hypotheses;
  result->src_ids = source_ids;
  result->src_len = src_len;
  result->src_unknown = 0;
  result->steps = finished.steps();
  return Status::kOk;
}

}  // namespace edgenmt
