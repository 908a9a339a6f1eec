#include "model_writer.h"

#include <algorithm>

#include "edgenmt/schema/edgenmt_generated.h"

namespace edgenmt::converter {
namespace {

namespace fb = ::edgenmt::schema;

flatbuffers::Offset<fb::Vocabulary> WriteVocabulary(flatbuffers::FlatBufferBuilder& b,
                                                    const VocabularyRecord& v) {
  std::vector<int32_t> sorted(v.tokens.size());
  for (size_t i = 0; i < sorted.size(); ++i) sorted[i] = static_cast<int32_t>(i);
  // std::string compares as unsigned bytes (char_traits<char>::compare uses memcmp semantics),
  // the order Model::Load checks and VocabularyView::Find searches.
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](int32_t a, int32_t b) { return v.tokens[a] < v.tokens[b]; });
  auto tokens = b.CreateVectorOfStrings(v.tokens);
  auto sorted_ids = b.CreateVector(sorted);
  return fb::CreateVocabulary(b, tokens, v.pad_id, v.unk_id, v.bos_id, v.eos_id, sorted_ids);
}

}  // namespace

std::vector<uint8_t> BuildModelFile(const ModelFileContents& m) {
  flatbuffers::FlatBufferBuilder b(1 << 20);
  // Store every field, even defaults, so the file says exactly what it means.
  b.ForceDefaults(true);

  // Buffers first, so the large data sits at the end of the file, then small tables.
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  for (const TensorRecord& t : m.tensors) {
    b.ForceVectorAlignment(t.data.size(), sizeof(uint8_t), m.data_alignment);
    auto data = b.CreateVector(t.data);
    buffers.push_back(fb::CreateBuffer(b, data));
  }
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const TensorRecord& t = m.tensors[i];
    flatbuffers::Offset<fb::Quantization> quant = 0;
    if (!t.scales.empty()) {
      auto zero_points = t.zero_points.empty() ? 0 : b.CreateVector(t.zero_points);
      quant = fb::CreateQuantization(b, b.CreateVector(t.scales), zero_points, t.axis);
    }
    std::vector<flatbuffers::Offset<fb::Requantization>> requantization;
    for (const RequantizationRecord& r : t.requantization) {
      requantization.push_back(fb::CreateRequantization(
          b, r.input_scale, r.rescale_rows, b.CreateVector(r.multiplier), b.CreateVector(r.shift)));
    }
    tensors.push_back(fb::CreateTensor(
        b, b.CreateString(t.name), b.CreateVector(t.shape), static_cast<fb::DType>(t.dtype), quant,
        static_cast<uint32_t>(i), requantization.empty() ? 0 : b.CreateVector(requantization)));
  }
  const ModelConfig& c = m.config;
  flatbuffers::Offset<fb::TransformerConfig> transformer = 0;
  if (c.model_type == ModelType::kTransformer) {
    const TransformerConfig& t = c.transformer;
    transformer =
        fb::CreateTransformerConfig(b, t.d_model, t.heads, t.ffn, t.max_tgt_len,
                                    static_cast<fb::FeedForwardActivation>(t.activation),
                                    static_cast<fb::NormPlacement>(t.norm),
                                    static_cast<fb::PositionEncoding>(t.positions), t.tie_output);
  }
  // Format 2 holds the RNN's options in Config.rnn; format 1 (compatibility tests) in Config's
  // flat fields.
  const RnnConfig& r = c.rnn;
  const bool flat_rnn = m.format_version < 2 && c.model_type == ModelType::kRnn;
  flatbuffers::Offset<fb::RnnConfig> rnn = 0;
  if (c.model_type == ModelType::kRnn && !flat_rnn) {
    rnn =
        fb::CreateRnnConfig(b, static_cast<fb::CellType>(r.cell), r.src_embed, r.tgt_embed,
                            r.enc_hidden, r.bidirectional, r.reverse_source, r.dec_hidden, r.bridge,
                            r.input_feeding, static_cast<fb::AttentionType>(r.attention),
                            static_cast<fb::ScoreType>(r.score), r.attn_hidden, r.window);
  }
  const RnnConfig flat = flat_rnn ? r : RnnConfig{};
  auto config = fb::CreateConfig(
      b, static_cast<fb::CellType>(flat.cell), c.src_vocab_size, c.tgt_vocab_size, flat.src_embed,
      flat.tgt_embed, flat.enc_hidden, c.enc_layers, c.dec_layers, flat.bidirectional,
      flat.reverse_source, flat.dec_hidden, flat.bridge, flat.input_feeding,
      static_cast<fb::AttentionType>(flat.attention), static_cast<fb::ScoreType>(flat.score),
      flat.attn_hidden, flat.window, c.max_src_len, static_cast<fb::TokenizerType>(c.tokenizer),
      static_cast<fb::QuantScheme>(c.scheme), static_cast<fb::ModelType>(c.model_type), transformer,
      rnn);
  auto src_vocab = WriteVocabulary(b, m.src_vocab);
  auto tgt_vocab = WriteVocabulary(b, m.tgt_vocab);
  const DecodingOptions& d = m.decoding;
  auto decoding = fb::CreateDecodingDefaults(b, d.beam, d.nbest, d.alpha, d.beta, d.min_len,
                                             d.max_len, d.max_len_ratio);
  auto plan =
      fb::CreateArenaPlan(b, m.arena_plan.max_src_len, m.arena_plan.beam, m.arena_plan.bytes);
  auto provenance = fb::CreateProvenance(b, b.CreateString(m.checkpoint_sha256),
                                         b.CreateString(m.converter_version),
                                         b.CreateString(m.created), b.CreateString(m.source));
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::ActivationFormat>>> activations =
      0;
  if (!m.activations.empty()) {
    std::vector<flatbuffers::Offset<fb::ActivationFormat>> formats;
    for (const ActivationFormatRecord& a : m.activations)
      formats.push_back(fb::CreateActivationFormat(b, b.CreateString(a.name), a.int_bits));
    activations = b.CreateVector(formats);
  }
  auto tensor_vector = b.CreateVector(tensors);
  auto buffer_vector = b.CreateVector(buffers);
  auto root = fb::CreateModel(b, m.format_version, config, src_vocab, tgt_vocab, tensor_vector,
                              buffer_vector, decoding, plan, provenance, activations);
  fb::FinishModelBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

}  // namespace edgenmt::converter
