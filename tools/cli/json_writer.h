// A small streaming JSON writer for the CLI's outputs (alignments). Keeps the CLI free of
// third-party dependencies; strings are escaped per RFC 8259, numbers written with %.9g.
#ifndef EDGENMT_TOOLS_CLI_JSON_WRITER_H_
#define EDGENMT_TOOLS_CLI_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

namespace edgenmt::cli {

class JsonWriter {
 public:
  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(const std::string& key);
  void String(const std::string& value);
  void Int(int64_t value);
  void Double(double value);  // non-finite values are written as null
  const std::string& str() const { return out_; }

 private:
  void Open(char c);
  void Close(char c);
  void Separate();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_JSON_WRITER_H_
