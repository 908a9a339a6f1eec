#include "tiny_checkpoint.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

#include "checkpoint.h"
#include "edgenmt/internal/tensor_layout.h"

namespace edgenmt::testing {

ModelConfig TinyConfig() {
  ModelConfig c{};
  c.rnn.cell = CellType::kLstm;
  c.src_vocab_size = 11;
  c.tgt_vocab_size = 9;
  c.rnn.src_embed = 6;
  c.rnn.tgt_embed = 7;
  c.rnn.enc_hidden = 5;
  c.enc_layers = 1;
  c.dec_layers = 2;
  c.rnn.bidirectional = true;
  c.rnn.reverse_source = false;
  c.rnn.dec_hidden = 8;
  c.rnn.bridge = true;
  c.rnn.input_feeding = true;
  c.rnn.attention = AttentionType::kGlobal;
  c.rnn.score = ScoreType::kGeneral;
  c.rnn.attn_hidden = 4;
  c.rnn.window = 2;
  c.max_src_len = 12;
  c.tokenizer = TokenizerType::kChar;
  c.scheme = QuantScheme::kFloat32;
  return c;
}

std::vector<std::string> TinyTokens(int32_t n) {
  std::vector<std::string> tokens = {"<pad>", "<unk>", "<s>", "</s>"};
  for (int32_t i = 4; i < n; ++i) {
    const int32_t k = i - 4;
    tokens.push_back(k < 26 ? std::string(1, static_cast<char>('a' + k)) : "w" + std::to_string(k));
  }
  return tokens;
}

converter::TensorMap TinyTensors(const ModelConfig& config, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
  converter::TensorMap tensors;
  ForEachExpectedTensor(config, [&](const ExpectedTensor& t) {
    converter::FloatTensor tensor;
    int64_t count = 1;
    for (int32_t i = 0; i < t.rank; ++i) {
      tensor.shape.push_back(t.shape[i]);
      count *= t.shape[i];
    }
    tensor.data.resize(static_cast<size_t>(count));
    for (float& x : tensor.data) x = uniform(rng);
    tensors[t.name] = std::move(tensor);
    return true;
  });
  return tensors;
}

void WriteCheckpoint(const std::string& dir, const ModelConfig& config,
                     const converter::TensorMap& tensors,
                     const std::vector<std::string>& src_tokens,
                     const std::vector<std::string>& tgt_tokens) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/config.json") << converter::ConfigToJson(config).dump(2) << "\n";
  const std::vector<uint8_t> weights = converter::SerializeSafetensors(tensors);
  std::ofstream(dir + "/model.safetensors", std::ios::binary)
      .write(reinterpret_cast<const char*>(weights.data()),
             static_cast<std::streamsize>(weights.size()));
  auto write_vocab = [&](const std::string& path, const std::vector<std::string>& tokens) {
    std::ofstream out(path, std::ios::binary);
    for (const std::string& t : tokens) out << t << "\n";
  };
  write_vocab(dir + "/src.vocab", src_tokens);
  write_vocab(dir + "/tgt.vocab", tgt_tokens);
}

void WriteTinyCheckpoint(const std::string& dir, const ModelConfig& config) {
  WriteCheckpoint(dir, config, TinyTensors(config), TinyTokens(config.src_vocab_size),
                  TinyTokens(config.tgt_vocab_size));
}

converter::Checkpoint TinyCheckpoint() {
  converter::Checkpoint ckpt;
  ckpt.dir = "tiny";
  ckpt.config = TinyConfig();
  ckpt.src_tokens = TinyTokens(ckpt.config.src_vocab_size);
  ckpt.tgt_tokens = TinyTokens(ckpt.config.tgt_vocab_size);
  ckpt.tensors = TinyTensors(ckpt.config);
  return ckpt;
}

TempDir::TempDir() {
  const char* base = getenv("TMPDIR");
  std::string pattern =
      std::string(base != nullptr && base[0] != '\0' ? base : "/tmp") + "/edgenmt-test.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::vector<std::string> TempDir::List() const {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(path_))
    names.push_back(entry.path().filename().string());
  return names;
}

AlignedBuffer::AlignedBuffer(const std::vector<uint8_t>& bytes, size_t offset)
    : storage_(static_cast<uint8_t*>(aligned_alloc(
                   kModelBufferAlignment, (bytes.size() + offset + kModelBufferAlignment) /
                                              kModelBufferAlignment * kModelBufferAlignment)),
               &free),
      data_(storage_.get() + offset),
      size_(bytes.size()) {
  if (!bytes.empty()) memcpy(data_, bytes.data(), bytes.size());
}

std::vector<uint8_t> ReadFile(const std::string& path) { return converter::ReadFileBytes(path); }

std::string ReadText(const std::string& path) {
  const std::vector<uint8_t> bytes = ReadFile(path);
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace edgenmt::testing
