// libFuzzer target over user lexicons (CMUdict text): the parser Phonemizer::LoadUserLexicon
// uses, into a table in fixed memory. Whatever the text, it must not crash or overflow, every
// bad line it reports must carry a line number inside the text, and the table it leaves must
// pass the same verification a file's lexicon does. Seeds: tests/fuzz/corpus/user_lexicon/.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "lexicon_format.h"
#include "user_lexicon.h"

namespace {

using namespace edgenmt::text;

void Check(bool ok) {
  if (!ok) abort();
}

struct Lines {
  uint32_t max_line;
};

void OnError(void* user, uint32_t line, const char* message) {
  Check(line >= 1 && line <= static_cast<Lines*>(user)->max_line);
  Check(message != nullptr && message[0] != 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  Lines lines{1};
  for (size_t i = 0; i < size; ++i) lines.max_line += data[i] == '\n';
  // Small limits so that the full-table and full-pool paths are reached too.
  const uint32_t max_words = 8 + (size % 24);
  std::vector<uint32_t> slots(LexiconSlotsFor(max_words));
  std::vector<uint8_t> pool(64 + size / 2);
  LexiconBuilder builder;
  builder.Init(slots.data(), static_cast<uint32_t>(slots.size()), pool.data(), pool.size());
  char detail[160];
  ParseUserLexicon(text, size, max_words, &builder, &OnError, &lines, detail, sizeof detail);
  Check(strlen(detail) < sizeof detail);
  Check(builder.num_words() <= max_words);
  char why[160];
  Check(builder.num_words() == 0 ||
        VerifyLexiconTable(builder.table(), builder.num_words(), why, sizeof why));
  return 0;
}
