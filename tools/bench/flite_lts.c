/* flite 2.2's letter-to-sound rules alone, the lexicon bypassed (issue 59 §5, make bench-g2p):
 *
 *   flite_lts < words.txt > phones.txt
 *
 * Reads one word per line on stdin and writes, for each, one line of space-separated phones:
 * lts_apply(word, "", &cmu_lts_rules), the CART letter-to-sound rules of libflite_cmulex (trained
 * by CMU on CMUdict 0.4), exactly what flite falls back to for a word missing from its lexicon,
 * without the lexicon lookup, the addenda or the post-lexical rules. Phones are flite's lowercase
 * CMU set with stress digits on vowels (aa1, ax0, ...); tools/bench/g2p_peers.py maps them to
 * ARPAbet. Words are lowercased first (the rules know a-z only; flite's lts_apply skips any
 * other character). An empty line gives an empty line, so output lines stay aligned with input
 * lines.
 *
 * Build (Debian flite1-dev; the Makefile's bench-g2p target does this):
 *   cc -O2 -Wall -I/usr/include/flite tools/bench/flite_lts.c -o build/bench/flite_lts \
 *       -lflite_cmulex -lflite -lm */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <flite/cst_lexicon.h>
#include <flite/cst_lts.h>
#include <flite/cst_val.h>

/* libflite_cmulex: the rules are a zero-initialized global that cmu_lex_init() fills in. */
extern cst_lts_rules cmu_lts_rules;
cst_lexicon* cmu_lex_init(void);

int main(void) {
  char line[4096];
  cmu_lex_init();
  while (fgets(line, sizeof line, stdin)) {
    size_t n = strcspn(line, "\r\n");
    line[n] = '\0';
    for (size_t i = 0; i < n; ++i) line[i] = (char)tolower((unsigned char)line[i]);
    if (n > 0) {
      cst_val* phones = lts_apply(line, "", &cmu_lts_rules);
      const cst_val* p;
      for (p = phones; p; p = val_cdr(p)) {
        fputs(val_string(val_car(p)), stdout);
        if (val_cdr(p)) putchar(' ');
      }
      delete_val(phones);
    }
    putchar('\n');
  }
  return ferror(stdout) ? 1 : 0;
}
