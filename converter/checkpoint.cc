#include "checkpoint.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "convert_error.h"
#include "edgenmt/internal/tensor_layout.h"
#include "sha256.h"

namespace edgenmt::converter {
namespace {

ConvertError Bad(const std::string& where, const std::string& reason) {
  return ConvertError(kExitBadInput, where, reason);
}

template <typename Enum, size_t N>
Enum ParseEnum(const nlohmann::json& json, const char* key,
               const std::pair<const char*, Enum> (&names)[N], const std::string& path) {
  const nlohmann::json& value = json.at(key);
  if (value.is_string()) {
    for (const auto& [name, e] : names) {
      if (value.get<std::string>() == name) return e;
    }
  }
  std::string allowed;
  for (const auto& [name, e] : names)
    allowed += std::string(allowed.empty() ? "" : ", ") + "\"" + name + "\"";
  throw Bad(path,
            std::string("key \"") + key + "\": " + value.dump() + " is not one of " + allowed);
}

template <typename Enum, size_t N>
const char* EnumToName(Enum e, const std::pair<const char*, Enum> (&names)[N]) {
  for (const auto& [name, value] : names) {
    if (value == e) return name;
  }
  return "?";
}

const std::pair<const char*, CellType> kCells[] = {{"lstm", CellType::kLstm},
                                                   {"gru", CellType::kGru}};
const std::pair<const char*, AttentionType> kAttentions[] = {
    {"none", AttentionType::kNone},
    {"global", AttentionType::kGlobal},
    {"local_m", AttentionType::kLocalM},
    {"local_p", AttentionType::kLocalP},
    {"bahdanau", AttentionType::kBahdanau}};
const std::pair<const char*, ScoreType> kScores[] = {{"dot", ScoreType::kDot},
                                                     {"general", ScoreType::kGeneral},
                                                     {"concat", ScoreType::kConcat},
                                                     {"location", ScoreType::kLocation}};
const std::pair<const char*, TokenizerType> kTokenizers[] = {{"char", TokenizerType::kChar},
                                                             {"word", TokenizerType::kWord}};

const std::pair<const char*, FeedForwardActivation> kActivations[] = {
    {"relu", FeedForwardActivation::kRelu}, {"gelu", FeedForwardActivation::kGelu}};
const std::pair<const char*, NormPlacement> kNorms[] = {{"pre", NormPlacement::kPre},
                                                        {"post", NormPlacement::kPost}};
const std::pair<const char*, PositionEncoding> kPositions[] = {
    {"sinusoidal", PositionEncoding::kSinusoidal}, {"learned", PositionEncoding::kLearned}};

int32_t ParseInt(const nlohmann::json& json, const char* key, const std::string& path) {
  const nlohmann::json& v = json.at(key);
  if (!v.is_number_integer())
    throw Bad(path, std::string("key \"") + key + "\": " + v.dump() + " is not an integer");
  const int64_t x = v.get<int64_t>();
  if (x < INT32_MIN || x > INT32_MAX)
    throw Bad(path, std::string("key \"") + key + "\": out of int32 range");
  return static_cast<int32_t>(x);
}

bool ParseBool(const nlohmann::json& json, const char* key, const std::string& path) {
  const nlohmann::json& v = json.at(key);
  if (!v.is_boolean())
    throw Bad(path, std::string("key \"") + key + "\": " + v.dump() + " is not true/false");
  return v.get<bool>();
}

bool ValidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else
      return false;
    if (i + n >= s.size()) return false;  // truncated sequence
    for (size_t k = 1; k <= n; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    const uint32_t min_cp[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

void CheckVocabulary(const std::vector<std::string>& tokens, int32_t expected_size,
                     const std::string& path) {
  if (tokens.size() != static_cast<size_t>(expected_size))
    throw Bad(path, std::to_string(tokens.size()) + " tokens, config.json says " +
                        std::to_string(expected_size));
  static const char* kSpecials[4] = {"<pad>", "<unk>", "<s>", "</s>"};
  for (size_t i = 0; i < 4; ++i) {
    if (tokens[i] != kSpecials[i])
      throw Bad(
          path + ":" + std::to_string(i + 1),
          "id " + std::to_string(i) + " must be " + kSpecials[i] + ", found \"" + tokens[i] + "\"");
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string where = path + ":" + std::to_string(i + 1);
    if (tokens[i].empty()) throw Bad(where, "empty token");
    if (tokens[i].find('\0') != std::string::npos) throw Bad(where, "token contains a NUL byte");
    if (!ValidUtf8(tokens[i])) throw Bad(where, "token is not valid UTF-8");
    if (!seen.insert(tokens[i]).second) throw Bad(where, "duplicate token \"" + tokens[i] + "\"");
  }
}

}  // namespace

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Bad(path, std::string("cannot open: ") + strerror(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) throw Bad(path, "read error");
  return bytes;
}

namespace {

// converter/reference/transformer.py's TransformerConfig.
ModelConfig ParseTransformerConfigJson(const nlohmann::json& json, const std::string& path) {
  static const char* kRequired[] = {
      "src_vocab_size", "tgt_vocab_size", "d_model",     "heads",    "ffn",
      "enc_layers",     "dec_layers",     "activation",  "norm",     "positions",
      "tie_output",     "max_src_len",    "max_tgt_len", "tokenizer"};
  for (const char* key : kRequired) {
    if (!json.contains(key)) throw Bad(path, std::string("missing key \"") + key + "\"");
  }
  ModelConfig c{};
  c.model_type = ModelType::kTransformer;
  c.scheme = QuantScheme::kFloat32;
  c.src_vocab_size = ParseInt(json, "src_vocab_size", path);
  c.tgt_vocab_size = ParseInt(json, "tgt_vocab_size", path);
  c.enc_layers = ParseInt(json, "enc_layers", path);
  c.dec_layers = ParseInt(json, "dec_layers", path);
  c.max_src_len = ParseInt(json, "max_src_len", path);
  c.tokenizer = ParseEnum(json, "tokenizer", kTokenizers, path);
  TransformerConfig& t = c.transformer;
  t.d_model = ParseInt(json, "d_model", path);
  t.heads = ParseInt(json, "heads", path);
  t.ffn = ParseInt(json, "ffn", path);
  t.max_tgt_len = ParseInt(json, "max_tgt_len", path);
  t.activation = ParseEnum(json, "activation", kActivations, path);
  t.norm = ParseEnum(json, "norm", kNorms, path);
  t.positions = ParseEnum(json, "positions", kPositions, path);
  t.tie_output = ParseBool(json, "tie_output", path);
  if (json.contains("dropout") && !json["dropout"].is_number())
    throw Bad(path, "key \"dropout\": not a number");
  char detail[160];
  if (ValidateModelConfig(c, detail, sizeof(detail)) != Status::kOk) throw Bad(path, detail);
  return c;
}

}  // namespace

ModelConfig ParseConfigJson(const nlohmann::json& json, const std::string& path) {
  if (!json.is_object()) throw Bad(path, "not a JSON object");
  if (json.contains("model_type") && json["model_type"].is_string() &&
      json["model_type"].get<std::string>() == "transformer") {
    return ParseTransformerConfigJson(json, path);
  }
  static const char* kRequired[] = {
      "cell",          "src_vocab_size", "tgt_vocab_size", "src_embed",
      "tgt_embed",     "enc_hidden",     "enc_layers",     "dec_layers",
      "bidirectional", "reverse_source", "dec_hidden",     "bridge",
      "input_feeding", "attention",      "max_src_len",    "tokenizer"};
  for (const char* key : kRequired) {
    if (!json.contains(key)) throw Bad(path, std::string("missing key \"") + key + "\"");
  }
  ModelConfig c{};
  c.rnn.cell = ParseEnum(json, "cell", kCells, path);
  c.src_vocab_size = ParseInt(json, "src_vocab_size", path);
  c.tgt_vocab_size = ParseInt(json, "tgt_vocab_size", path);
  c.rnn.src_embed = ParseInt(json, "src_embed", path);
  c.rnn.tgt_embed = ParseInt(json, "tgt_embed", path);
  c.rnn.enc_hidden = ParseInt(json, "enc_hidden", path);
  c.enc_layers = ParseInt(json, "enc_layers", path);
  c.dec_layers = ParseInt(json, "dec_layers", path);
  c.rnn.bidirectional = ParseBool(json, "bidirectional", path);
  c.rnn.reverse_source = ParseBool(json, "reverse_source", path);
  c.rnn.dec_hidden = ParseInt(json, "dec_hidden", path);
  c.rnn.bridge = ParseBool(json, "bridge", path);
  c.rnn.input_feeding = ParseBool(json, "input_feeding", path);
  c.rnn.attention = ParseEnum(json, "attention", kAttentions, path);
  // score and attn_hidden/window only matter for some attentions; absent means unused.
  if (json.contains("score")) {
    c.rnn.score = ParseEnum(json, "score", kScores, path);
  } else if (c.rnn.attention != AttentionType::kNone) {
    throw Bad(path, "missing key \"score\"");
  }
  c.rnn.attn_hidden = json.contains("attn_hidden") ? ParseInt(json, "attn_hidden", path) : 0;
  c.rnn.window = json.contains("window") ? ParseInt(json, "window", path) : 0;
  c.max_src_len = ParseInt(json, "max_src_len", path);
  c.tokenizer = ParseEnum(json, "tokenizer", kTokenizers, path);
  c.scheme = QuantScheme::kFloat32;
  // Optional: checkpoints before model types existed are RNN models.
  c.model_type = ModelType::kRnn;
  if (json.contains("model_type") &&
      !(json["model_type"].is_string() && json["model_type"].get<std::string>() == "rnn"))
    throw Bad(path, "key \"model_type\": \"rnn\" or \"transformer\"");
  if (json.contains("dropout") && !json["dropout"].is_number())
    throw Bad(path, "key \"dropout\": not a number");

  char detail[160];
  if (ValidateModelConfig(c, detail, sizeof(detail)) != Status::kOk) throw Bad(path, detail);
  return c;
}

nlohmann::json ConfigToJson(const ModelConfig& c) {
  if (c.model_type == ModelType::kTransformer) {
    const TransformerConfig& t = c.transformer;
    return nlohmann::json{{"model_type", "transformer"},
                          {"src_vocab_size", c.src_vocab_size},
                          {"tgt_vocab_size", c.tgt_vocab_size},
                          {"d_model", t.d_model},
                          {"heads", t.heads},
                          {"ffn", t.ffn},
                          {"enc_layers", c.enc_layers},
                          {"dec_layers", c.dec_layers},
                          {"activation", EnumToName(t.activation, kActivations)},
                          {"norm", EnumToName(t.norm, kNorms)},
                          {"positions", EnumToName(t.positions, kPositions)},
                          {"tie_output", t.tie_output},
                          {"max_src_len", c.max_src_len},
                          {"max_tgt_len", t.max_tgt_len},
                          {"tokenizer", EnumToName(c.tokenizer, kTokenizers)},
                          {"dropout", 0.0}};
  }
  return nlohmann::json{{"cell", EnumToName(c.rnn.cell, kCells)},
                        {"src_vocab_size", c.src_vocab_size},
                        {"tgt_vocab_size", c.tgt_vocab_size},
                        {"src_embed", c.rnn.src_embed},
                        {"tgt_embed", c.rnn.tgt_embed},
                        {"enc_hidden", c.rnn.enc_hidden},
                        {"enc_layers", c.enc_layers},
                        {"dec_layers", c.dec_layers},
                        {"bidirectional", c.rnn.bidirectional},
                        {"reverse_source", c.rnn.reverse_source},
                        {"dec_hidden", c.rnn.dec_hidden},
                        {"bridge", c.rnn.bridge},
                        {"input_feeding", c.rnn.input_feeding},
                        {"attention", EnumToName(c.rnn.attention, kAttentions)},
                        {"score", EnumToName(c.rnn.score, kScores)},
                        {"attn_hidden", c.rnn.attn_hidden},
                        {"window", c.rnn.window},
                        {"max_src_len", c.max_src_len},
                        {"tokenizer", EnumToName(c.tokenizer, kTokenizers)},
                        {"dropout", 0.0}};
}

std::vector<std::string> ReadVocabFile(const std::string& path) {
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  std::vector<std::string> tokens;
  std::string line;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      tokens.push_back(line);
      line.clear();
    } else {
      line.push_back(static_cast<char>(bytes[i]));
    }
  }
  if (!line.empty()) tokens.push_back(line);
  return tokens;
}

Checkpoint LoadCheckpoint(const std::string& dir) {
  Checkpoint ckpt;
  ckpt.dir = dir;
  const std::string config_path = dir + "/config.json";
  {
    const std::vector<uint8_t> text = ReadFileBytes(config_path);
    nlohmann::json json = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (json.is_discarded()) throw Bad(config_path, "not valid JSON");
    ckpt.config = ParseConfigJson(json, config_path);
  }
  const std::string src_vocab_path = dir + "/src.vocab", tgt_vocab_path = dir + "/tgt.vocab";
  ckpt.src_tokens = ReadVocabFile(src_vocab_path);
  CheckVocabulary(ckpt.src_tokens, ckpt.config.src_vocab_size, src_vocab_path);
  ckpt.tgt_tokens = ReadVocabFile(tgt_vocab_path);
  CheckVocabulary(ckpt.tgt_tokens, ckpt.config.tgt_vocab_size, tgt_vocab_path);

  const std::string weights_path = dir + "/model.safetensors";
  {
    const std::vector<uint8_t> file = ReadFileBytes(weights_path);
    ckpt.safetensors_sha256 = Sha256Hex(file.data(), file.size());
    ckpt.tensors = ParseSafetensors(file, weights_path);
  }

  // Collected first: the runtime's ExpectedTensors() is built without exceptions, so nothing
  // may throw through its callback.
  std::vector<ExpectedTensor> expected;
  ForEachExpectedTensor(ckpt.config, [&](const ExpectedTensor& want) {
    expected.push_back(want);
    return true;
  });
  std::set<std::string> expected_names;
  for (const ExpectedTensor& want : expected) {
    expected_names.insert(want.name);
    const auto it = ckpt.tensors.find(want.name);
    if (it == ckpt.tensors.end())
      throw Bad(want.name, "missing from " + weights_path + " (the config needs it)");
    const std::vector<int64_t> want_shape(want.shape, want.shape + want.rank);
    if (it->second.shape != want_shape)
      throw Bad(want.name, "shape " + ShapeString(it->second.shape) + ", the config needs " +
                               ShapeString(want_shape));
    const std::vector<float>& data = it->second.data;
    for (size_t i = 0; i < data.size(); ++i) {
      if (!std::isfinite(data[i]))
        throw Bad(want.name, "element " + std::to_string(i) + " is not finite (" +
                                 std::to_string(data[i]) + ")");
    }
  }
  for (const auto& [name, tensor] : ckpt.tensors) {
    if (expected_names.count(name) == 0)
      throw Bad(name, "in " + weights_path + " but not used by this config (extra tensor)");
  }
  return ckpt;
}

}  // namespace edgenmt::converter
