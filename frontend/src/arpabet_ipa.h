// ARPAbet (CMUdict phonemes with stress digits) to IPA in the symbol set and stress-mark
// placement of eSpeak NG's American English (`espeak-ng -q --ipa -v en-us`), so that TTS voices
// trained on eSpeak NG phonemes (Piper's en_US voices) can read our output. The mapping, the
// context rules and their measured agreement with espeak-ng are in docs/IPA.md.
#ifndef EDGENMT_FRONTEND_ARPABET_IPA_H_
#define EDGENMT_FRONTEND_ARPABET_IPA_H_

#include <stddef.h>

#include "arpabet.h"

namespace edgenmt {
namespace text {

// Writes the UTF-8 IPA of one word (no spaces, no NUL) into out[0, cap) and returns the bytes the
// text needs (may exceed cap: nothing past cap is written; out may be null when cap is 0). No
// phones, or a code whose base is not one of the 39 phonemes: returns 0 and writes nothing.
//
// Stress marks follow eSpeak NG: ˈ (primary) or ˌ (secondary) directly before the stressed
// vowel, not before the syllable's onset (eSpeak writes "ɐbˈaʊt", not "ɐˈbaʊt"); a stressed
// monosyllable gets ˈ too ("kˈæt"). Only the first primary stress of a word is marked, and a
// secondary stress next to it is left unmarked, as eSpeak does. A word with 2s but no 1 gets ˈ on
// its first 2; a word with only 0s ("DH AH0") gets no mark, like eSpeak's function words.
//
// Vowels without a stress digit (a stressless model's output) get no mark and the vowel quality
// of an unstressed vowel (AH -> ə, ER -> ɚ, IY -> i/ɪ), which agrees best with eSpeak when the
// stress is unknown.
size_t WriteIpaWord(const PhoneCode* phones, int count, char* out, size_t cap);

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_ARPABET_IPA_H_
