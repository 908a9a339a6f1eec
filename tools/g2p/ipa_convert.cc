// Host tool for tools/g2p/ipa_agreement.py: reads "word<TAB>ARPAbet" lines ("HELLO\tHH AH0 L OW1")
// on stdin and prints "word<TAB>IPA" lines, one for each, through WriteIpaWord. A line whose
// phonemes do not parse still gets its output line (IPA empty) so that lines stay aligned.
// Build: g++ -std=c++17 -O2 -I frontend/src frontend/src/arpabet.cc frontend/src/arpabet_ipa.cc
//        tools/g2p/ipa_convert.cc -o ipa_convert
#include <stdio.h>
#include <string.h>

#include "arpabet.h"
#include "arpabet_ipa.h"

int main() {
  using edgenmt::text::PhoneCode;
  static char line[4096];
  static PhoneCode phones[512];
  static char ipa[4096];
  int status = 0;
  while (fgets(line, sizeof line, stdin) != nullptr) {
    size_t len = strcspn(line, "\r\n");
    line[len] = '\0';
    char* tab = strchr(line, '\t');
    const char* arpabet = tab != nullptr ? tab + 1 : "";
    if (tab != nullptr) *tab = '\0';
    int count = 0;
    bool ok = tab != nullptr;
    for (const char* p = arpabet; ok && *p != '\0';) {
      while (*p == ' ') ++p;
      const size_t n = strcspn(p, " ");
      if (n == 0) break;
      ok = count < 512 && edgenmt::text::ParseArpabetPhone(p, n, &phones[count++]);
      p += n;
    }
    size_t used = 0;
    if (ok) used = edgenmt::text::WriteIpaWord(phones, count, ipa, sizeof ipa - 1);
    if (!ok || used >= sizeof ipa) {
      fprintf(stderr, "ipa_convert: cannot convert line for %s\n", line);
      status = 1;
      used = 0;
    }
    ipa[used] = '\0';
    printf("%s\t%s\n", line, ipa);
  }
  return status;
}
