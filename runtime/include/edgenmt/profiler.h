// Profiling hook: where a translation spends its time, measured by the caller's clock (the
// runtime has none). Host tools set a Profiler; the runtime calls begin/end around each stage.
//
//   edgenmt::Profiler profiler{&MyBegin, &MyEnd, &my_timer};
//   edgenmt::SetProfiler(&profiler);     // every Translator in the process reports to it
//   translator.Translate(...);           // MyBegin(&my_timer, ProfileStage::kEncoder) ...
//   edgenmt::SetProfiler(nullptr);
//
// Stages nest: kSearch contains kDecoderStep, which contains kRecurrentCell, kAttention and
// kOutputProjection (float32 and int8 models; an int8-full decoder step is one integer
// computation with no inner stages); kEncoder (embedding, encoder layers, bridge) stands alone.
// Unset, the cost is one pointer test per stage call. The profiler is process-wide and must
// outlive its use; profile one translator at a time (calls from concurrent translators would
// interleave).
#ifndef EDGENMT_PROFILER_H_
#define EDGENMT_PROFILER_H_

#include <stdint.h>

namespace edgenmt {

enum class ProfileStage : uint8_t {
  kEncoder = 0,           // source embedding, encoder layers, bridge
  kSearch = 1,            // greedy/beam search, including every decoder step
  kDecoderStep = 2,       // one decoder step (all live hypotheses)
  kRecurrentCell = 3,     // the decoder's stacked LSTM/GRU cells
  kAttention = 4,         // scores, window, a_t, c_t and the attentional layer tanh(W_c[c;h])
  kOutputProjection = 5,  // generator: logits and log-softmax over the target vocabulary
  kFeedForward = 6,       // a Transformer decoder layer's feed-forward block
};
constexpr int32_t kProfileStageCount = 7;

// Stable name ("encoder", "search", "decoder step", "recurrent cell", "attention",
// "output projection", "feed-forward"); "unknown" outside the enum.
const char* ProfileStageName(ProfileStage stage);

struct Profiler {
  void (*begin)(void* context, ProfileStage stage);
  void (*end)(void* context, ProfileStage stage);
  void* context;
};

// Installs `profiler` (nullptr: none). Not synchronized: set it while no translation runs.
void SetProfiler(const Profiler* profiler);

}  // namespace edgenmt

#endif  // EDGENMT_PROFILER_H_
