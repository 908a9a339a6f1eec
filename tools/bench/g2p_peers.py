#!/usr/bin/env python3
"""edgenmt's G2P beside the classic peers, in one run (issue 59 §5; `make bench-g2p`).

    /usr/bin/python3 tools/bench/g2p_peers.py [--test data/g2p/test.tsv]
        [--cmudict04 /usr/share/festival/dicts/cmu/cmudict-0.4.out]
        [--cli build/host/edgenmt] [--phonemizer build/models/phonemizer-en.enmt]
        [--flite-lts build/bench/flite_lts] [--text /usr/share/common-licenses/GPL-3]
        [--repeat 3] [--json build/bench/g2p_peers.json]

Standard library only (the scoring functions come from converter/reference/g2p_metrics.py, which
imports nothing but the standard library). Needs the Debian packages of
`scripts/install-deps.sh bench-g2p` (flite, flite1-dev, espeak-ng, festival, festlex-cmu, time);
a system whose program is missing gets a "not available" row, and `na` in the last line.

Systems (each one whole batch of the test split's distinct words, one process per pass):
  * flite 2.2, letter-to-sound rules alone (tools/bench/flite_lts.c: lts_apply(word, "",
    &cmu_lts_rules) of libflite_cmulex, the lexicon bypassed). Words are given with every
    character outside a-z removed (`airline's` -> `airlines`), which is what flite itself does
    (`flite -t "abiam's" -ps` says `ey b iy ax m z`, as the rules on `abiams`); lts_apply given
    the apostrophe skips it but keeps it in the letter context the trees never saw. That variant
    (the figures of issue 59's table: 33.48 / 61.94) is measured too, as a second row.
  * Festival 2.5, CMU letter-to-sound alone: one `festival --batch` process loads festlex-cmu's
    cmu_lts_rules.scm and prints `(lts_predict word cmu_lts_rules)` for every word, which is the
    phone string of cmulex's own cmu_lts_function (that function then only adds syllables and
    stress). Words again reduced to a-z (cmu_lts_function returns nothing for any other word).
    `(gc)` is called every 50 words: without it, Festival 2.5's run time grows faster than the
    word count (about 15 minutes for the 11,893 words instead of about 15 seconds).
  * eSpeak NG 1.51, `espeak-ng -q --ipa --sep=_ -v en-us -l 1000`, one word per line: `-l 1000`
    ends a clause at every line shorter than 1,000 characters, so each word is read alone and
    each gives exactly one output line (checked: the line count, and 30 words, evenly spaced,
    run one per process must give the same line). `--sep=_` separates eSpeak's phonemes (one
    token per eSpeak phoneme, so `aɪ` or `ɑːɹ` are never split wrongly); the IPA is mapped to
    ARPAbet with ESPEAK_IPA below. A word eSpeak reads as several (`ii` -> "roman two", `abc`
    spelled) gives their phonemes run together.
  * edgenmt: `CLI phonemize -m PHONEMIZER --no-lexicon --format arpabet`, one word per line
    (words split by ` |`, punctuation breaks dropped, stress digits stripped). Without the CLI
    or the phonemizer file, "not available" rows.

Scoring: exactly converter/reference/evaluate.py's (g2p_metrics.score, imported): each distinct
test word against its closest listed pronunciation (ties: the first), stressless; WER = words
with distance > 0, PER = total distance / total length of the chosen references. On (a) all test
words and (b) the test words absent from CMUdict 0.4 as Festival ships it (festlex-cmu's
cmudict-0.4.out, the lexicon flite's and Festival's rules were trained on): a test word is in
(b) when no entry of that file has exactly its spelling (1,855 of 11,893 words; matching
without case would give 1,851). Note that the file has no word with an apostrophe, so all 710
test words with one are in (b), 38 % of it.

Speed: words/s = distinct test words / wall time of the whole batch (process start, data
loading and all), one core (`taskset -c 0`), the median of --repeat passes interleaved across
systems (pass 1 of every system, then pass 2, ...). Peak RSS: `/usr/bin/time -f %M` around each
pass (a child forked straight from this Python process would inherit its high-water mark across
exec), the largest of the passes. Data size: the bytes each system's rules/data occupy (see
data_sizes()). Real text: --text (default /usr/share/common-licenses/GPL-3, the GNU GPL v3 of
Debian's base-files: real English prose), words = whitespace-separated tokens; words/s of
`edgenmt phonemize -m PHONEMIZER --format ipa` (with its lexicon) against `espeak-ng -q
--ipa -v en-us`, both reading the whole file on stdin, median of --repeat passes, one core.

Mappings to ARPAbet. FLITE_PHONES for flite and Festival: their phone sets are CMUdict's
lowercased, plus `ax` for unstressed AH and `pau` for a pause; every phone either produced on
the test split is in the table. ESPEAK_IPA for eSpeak, one entry per eSpeak phoneme (every token
eSpeak produced on the test split is in it; an unknown one would be counted, reported and
dropped), plus three rules: `ɪ` followed by eSpeak's empty `;` phoneme (its I2; before a vowel)
is IY (abbreviate V IY EY); `ɹ` right after `ɚ`/`ɜː` is dropped (eSpeak's linking r: accessorize
S ER AY Z); an R right after an R is dropped (`ʊɹ`/`ɑːɹ` + linking r). Each entry with a choice
takes what eSpeak's token is aligned with most often in CMUdict's closest reference over the
whole split (ɾ: T 694 of 701, eSpeak flaps t only; ᵻ: IH 474, AH 172; ɐ: AH 289, AA 66; ɔ: AO
102, AA 52; iə: IY AH; syllabic əl, n̩: AH L, AH N; ʔ, only before n̩: T 42 of 42). The three
rules take eSpeak's WER on the split from 41.49 to 38.73. Checked by hand (2026-12-07) on 30
test words, every 396th distinct word, for all three peers: raw output, mapped ARPAbet and
reference side by side; every remaining difference is the peer's own pronunciation (kulis: eSpeak
kjˈʊliz; mbira: ˈɛmbˈiəɹə; nonessential: flite and Festival N AA N AH S EH N CH AH L), none is
the mapping's. The JSON keeps those 30 samples per system.

Output: a table, the JSON file (--json: every figure, the date, the CPU, the versions), and as
the last line:
    g2p_peers edgenmt_wer=W flite_lts_wer=F espeak_wer=E subset_edgenmt_wer=W2
    subset_flite_wer=F2 subset_espeak_wer=E2 edgenmt_text_words_per_s=X espeak_text_words_per_s=Y
(one line; WER with 2 decimals, words/s integers, `na` where a system is not available;
flite_lts_wer and subset_flite_wer are the a-z row's). flite's words/s is mostly process start:
its batch takes about 50 ms.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "converter", "reference"))
from g2p_metrics import read_tsv, score  # noqa: E402  (standard library only)

FESTIVAL_LTS = "/usr/share/festival/dicts/cmu/cmu_lts_rules.scm"
FLITE_CMULEX = "/usr/lib/x86_64-linux-gnu/libflite_cmulex.so.1"
ESPEAK_DATA = "/usr/lib/x86_64-linux-gnu/espeak-ng-data"
ESPEAK_CMD = ["espeak-ng", "-q", "--ipa", "-v", "en-us"]
ESPEAK_WORDS_CMD = ["espeak-ng", "-q", "--ipa", "--sep=_", "-v", "en-us", "-l", "1000"]

# flite / Festival phones (stress digits removed first) -> ARPAbet. Their set is CMUdict's in
# lower case; `ax` is their unstressed schwa (CMUdict's AH0); `pau` a pause (dropped).
FLITE_PHONES = {p.lower(): [p] for p in (
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH "
    "UW V W Y Z ZH").split()}
FLITE_PHONES.update({"ax": ["AH"], "axr": ["ER"], "pau": []})

# eSpeak NG en-us IPA phonemes (one `--sep` token, stress marks ˈ ˌ removed) -> ARPAbet.
# Counts: how often each occurs in eSpeak's output for the 11,893 test words (2026-12-07).
ESPEAK_IPA = {
    # consonants
    "p": ["P"], "b": ["B"], "t": ["T"], "d": ["D"], "k": ["K"], "ɡ": ["G"], "g": ["G"],
    "f": ["F"], "v": ["V"], "θ": ["TH"], "ð": ["DH"], "s": ["S"], "z": ["Z"], "ʃ": ["SH"],
    "ʒ": ["ZH"], "h": ["HH"], "tʃ": ["CH"], "dʒ": ["JH"], "m": ["M"], "n": ["N"],
    "ŋ": ["NG"], "l": ["L"], "ɹ": ["R"], "r": ["R"], "w": ["W"], "j": ["Y"],
    "ɾ": ["T"],          # flap (701): eSpeak flaps t only (no ɾ in a word spelled without t)
    "ʔ": ["T"],          # glottal stop, only in ʔn̩ (bratton: B R AE T AH N) (42)
    "x": ["K"],          # German/Scottish ch (achenbach: ... B AA K) (28)
    "ɬ": ["L"],          # Welsh ll (llanas) (1)
    "n̩": ["AH", "N"],    # syllabic n (button: B AH T AH N) (42)
    "əl": ["AH", "L"],   # syllabic l (able: EY B AH L) (574)
    # vowels
    "ɪ": ["IH"], "ᵻ": ["IH"],  # ᵻ: reduced i of -es, -ed (CMUdict IH0) (783)
    "i": ["IY"], "iː": ["IY"], "ɛ": ["EH"], "æ": ["AE"], "ʌ": ["AH"], "ə": ["AH"],
    "ɐ": ["AH"],         # reduced a (about) (430)
    "ɑː": ["AA"], "ɑ": ["AA"], "ɔː": ["AO"], "ɔ": ["AO"], "oː": ["AO"], "ʊ": ["UH"],
    "uː": ["UW"], "u": ["UW"], "ɜː": ["ER"], "ɚ": ["ER"], "eɪ": ["EY"], "aɪ": ["AY"],
    "ɔɪ": ["OY"], "aʊ": ["AW"], "oʊ": ["OW"],
    "ɑ̃": ["AA"],         # nasal a (blanc) (1)
    "iə": ["IY", "AH"],  # abkhazia: ... Z IY AH (209)
    "aɪə": ["AY", "AH"],  # alliance: AH L AY AH N S (38)
    # r-coloured vowels of en-us
    "ɑːɹ": ["AA", "R"], "ɔːɹ": ["AO", "R"], "oːɹ": ["AO", "R"], "ɛɹ": ["EH", "R"],
    "ɪɹ": ["IH", "R"], "ʊɹ": ["UH", "R"], "aɪɚ": ["AY", "ER"], "aʊɚ": ["AW", "ER"],
}
STRESS_MARKS = "ˈˌ"

CHECK_WORDS = 30  # mapping / alignment spot checks


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def letters_only(word):
    return re.sub(r"[^a-z]", "", word.lower())


def flite_to_arpabet(line, unknown):
    out = []
    for p in line.replace("(", " ").replace(")", " ").split():
        p = re.sub(r"\d", "", p)
        if p == "nil":
            continue
        if p not in FLITE_PHONES:
            unknown[p] = unknown.get(p, 0) + 1
            continue
        out += FLITE_PHONES[p]
    return out


def espeak_to_arpabet(line, unknown):
    """One line of `espeak-ng --ipa --sep=_` -> ARPAbet (see ESPEAK_IPA and its three rules)."""
    toks = ["".join(c for c in t if c not in STRESS_MARKS)
            for t in line.replace(" ", "_").split("_")]
    out = []
    for k, tok in enumerate(toks):
        if not tok:
            continue  # eSpeak phonemes without IPA: `;` after i-vowels, `@-` (2 on the split)
        if tok == "ɪ" and k + 1 < len(toks) and toks[k + 1] == "":
            out.append("IY")  # eSpeak's I2; / I; before a vowel: abbreviate V IY EY, abio B IY OW
            continue
        if tok in ("ɹ", "r") and k > 0 and toks[k - 1] in ("ɚ", "ɜː"):
            continue  # linking r after ER: accessorize S ER AY Z, not S ER R AY Z
        if tok not in ESPEAK_IPA:
            unknown[tok] = unknown.get(tok, 0) + 1
            continue
        mapped = ESPEAK_IPA[tok]
        if mapped == ["R"] and out and out[-1] == "R":
            continue  # ʊɹ/ɑːɹ + linking r (brochure SH UH R, tomorrow): one R
        out += mapped
    return out


def edgenmt_to_arpabet(line):
    return [re.sub(r"\d", "", t) for t in line.split() if re.fullmatch(r"[A-Z]+[0-2]?", t)]


def per_word(out, words, who, convert):
    """A peer's stdout, one line per word in order, as word -> ARPAbet; a line count other than
    the word count is an error (a peer that drops or splits a line would shift every word)."""
    lines = out.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != len(words):
        raise RuntimeError(f"{who} gave {len(lines)} lines for {len(words)} words")
    return {w: convert(line) for w, line in zip(words, lines)}


def read_cmudict04(path):
    words = set()
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = re.match(r'\("((?:[^"\\]|\\.)*)"', line)
            if m:
                words.add(m.group(1))
    return words


class System:
    """One row: a command run on the whole batch; parse(stdout) -> word -> phonemes."""

    def __init__(self, key, name, licence):
        self.key, self.name, self.licence = key, name, licence
        self.available, self.why = True, ""
        self.cmd, self.stdin_path, self.parse = None, None, None
        self.times, self.rss_kb, self.outputs = [], [], []
        self.result = {}


def run_timed(cmd, stdin_path, pin, tmpdir):
    """(wall seconds, peak RSS KiB, stdout) of one pass."""
    rss_file = os.path.join(tmpdir, "rss")
    full = (["taskset", "-c", "0"] if pin else []) + \
        ["/usr/bin/time", "-f", "%M", "-o", rss_file] + cmd
    with open(stdin_path, "rb") as stdin:
        t0 = time.perf_counter()
        p = subprocess.run(full, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: "
                           f"{p.stderr.decode('utf-8', 'replace')[-500:]}")
    with open(rss_file) as f:
        rss = int(f.read().split()[-1])
    return wall, rss, p.stdout.decode("utf-8", "replace")


def version_of(pkg):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True,
                              text=True).stdout.strip() or None
    except OSError:
        return None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def symbol_bytes(lib, names):
    """Sizes of the named dynamic symbols of lib (nm -D -S), or None."""
    try:
        out = subprocess.run(["nm", "-D", "-S", "--defined-only", lib], capture_output=True,
                             text=True).stdout
    except OSError:
        return None
    sizes = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] in names:
            sizes[f[3]] = int(f[1], 16)
    return sizes or None


def fsize(path):
    return os.path.getsize(path) if os.path.exists(path) else None


def data_sizes(args):
    """Bytes of what each system reads to turn letters into phonemes."""
    flite_syms = symbol_bytes(os.path.realpath(FLITE_CMULEX),
                              {"cmu_lts_model", "cmu_lts_letter_index", "cmu_lts_phone_table",
                               "cmu_lts_letter_table"})
    espeak_files = {n: fsize(os.path.join(ESPEAK_DATA, n))
                    for n in ("en_dict", "phontab", "phonindex", "phondata", "intonations")}
    return {
        # the rules compiled into libflite_cmulex: the CART model and the letter index
        "flite_lts": {"bytes": (flite_syms or {}).get("cmu_lts_model", 0) +
                      (flite_syms or {}).get("cmu_lts_letter_index", 0) if flite_syms else None,
                      "symbols": flite_syms,
                      "library_file": os.path.realpath(FLITE_CMULEX),
                      "library_bytes": fsize(os.path.realpath(FLITE_CMULEX)),
                      "what": "cmu_lts_model + cmu_lts_letter_index of libflite_cmulex "
                              "(the library, with the lexicon, is library_bytes)"},
        "festival_lts": {"bytes": fsize(FESTIVAL_LTS), "file": FESTIVAL_LTS,
                         "what": "cmu_lts_rules.scm (Scheme text, loaded at start)"},
        # en_dict: eSpeak's compiled English rules and exception lexicon; the phoneme tables
        # (phontab, phonindex, phondata) are read too
        "espeak": {"bytes": espeak_files["en_dict"], "files": espeak_files,
                   "what": "en_dict (rules + exception list); phoneme tables in files"},
        "edgenmt": {"bytes": fsize(args.phonemizer), "file": args.phonemizer,
                    "what": "the phonemizer file (model + lexicon; --no-lexicon rows use only "
                            "the model)"},
    }


def edgenmt_licence():
    for name in ("LICENSE", "LICENSE.md", "LICENSE.txt", "COPYING"):
        path = os.path.join(REPO, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.strip():
                        return line.strip()
    return "not declared (no LICENSE file in the repository)"


def fmt(x, spec):
    return "na" if x is None else format(x, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--test", default=os.path.join(REPO, "data/g2p/test.tsv"))
    ap.add_argument("--cmudict04", default="/usr/share/festival/dicts/cmu/cmudict-0.4.out")
    ap.add_argument("--cli", default=os.path.join(REPO, "build/host/edgenmt"))
    ap.add_argument("--phonemizer", default=os.path.join(REPO, "build/models/phonemizer-en.enmt"))
    ap.add_argument("--flite-lts", default=os.path.join(REPO, "build/bench/flite_lts"))
    ap.add_argument("--text", default="/usr/share/common-licenses/GPL-3")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", default=os.path.join(REPO, "build/bench/g2p_peers.json"))
    args = ap.parse_args()
    t_start = time.perf_counter()

    refs = read_tsv(args.test)
    words = list(refs)
    lex04 = read_cmudict04(args.cmudict04)
    subset = {w: r for w, r in refs.items() if w not in lex04}
    pin = shutil.which("taskset") is not None
    if not pin:
        log("g2p_peers: no taskset: passes are not pinned to one core")
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("g2p_peers: /usr/bin/time is missing (Debian package `time`)")
    log(f"g2p_peers: {len(words)} distinct test words, {len(subset)} absent from CMUdict 0.4 "
        f"({args.cmudict04}, {len(lex04)} words)")

    tmp = tempfile.mkdtemp(prefix="g2p_peers.")
    words_raw = os.path.join(tmp, "words.txt")
    words_az = os.path.join(tmp, "words_az.txt")
    with open(words_raw, "w", encoding="utf-8") as f:
        f.write("".join(w + "\n" for w in words))
    with open(words_az, "w", encoding="utf-8") as f:
        f.write("".join(letters_only(w) + "\n" for w in words))

    unknown = {}  # system -> unmapped phone -> count
    systems = []

    # flite: letter-to-sound rules alone, a-z only (as flite's own tokenizer gives them)
    for key, name, stdin in (("flite_lts", "flite 2.2 LTS rules alone", words_az),
                             ("flite_lts_apostrophes",
                              "flite 2.2 LTS rules, words with apostrophes as given", words_raw)):
        s = System(key, name, "flite licence (CMU, BSD-style, permissive)")
        if not os.access(args.flite_lts, os.X_OK):
            s.available, s.why = False, f"{args.flite_lts} not built (make bench-g2p builds it)"
        s.cmd, s.stdin_path = [args.flite_lts], stdin
        s.parse = (lambda out, k=key: per_word(
            out, words, "flite_lts", lambda l: flite_to_arpabet(l, unknown.setdefault(k, {}))))
        systems.append(s)

    # Festival: (lts_predict word cmu_lts_rules) for every word in one process
    s = System("festival_lts", "Festival 2.5 CMU LTS rules alone",
               "Festival / festlex-cmu licence (CSTR Edinburgh, X11-style, permissive)")
    if not shutil.which("festival"):
        s.available, s.why = False, "festival not installed"
    elif not os.path.exists(FESTIVAL_LTS):
        s.available, s.why = False, f"{FESTIVAL_LTS} missing (festlex-cmu)"
    else:
        scm = os.path.join(tmp, "lts.scm")
        with open(scm, "w") as f:
            f.write("(require 'lts)\n")
            f.write(f'(load "{FESTIVAL_LTS}")\n')
            f.write('(define (p i w) (format t "LTS\\t%d\\t%l\\n" i '
                    '(if (string-equal w "") nil (lts_predict w cmu_lts_rules))))\n')
            for i, w in enumerate(words):
                f.write(f'(p {i} "{letters_only(w)}")\n')
                if i % 50 == 49:
                    f.write("(gc)\n")
        s.cmd, s.stdin_path = ["festival", "--batch", scm], os.devnull

        def parse_festival(out):
            got = {}
            for line in out.split("\n"):
                if line.startswith("LTS\t"):
                    _, i, phones = line.split("\t", 2)
                    got[words[int(i)]] = flite_to_arpabet(phones,
                                                          unknown.setdefault("festival_lts", {}))
            if len(got) != len(words):
                raise RuntimeError(f"festival answered {len(got)} of {len(words)} words")
            return got
        s.parse = parse_festival
    systems.append(s)

    # eSpeak NG en-us, one word per line
    s = System("espeak", "eSpeak NG 1.51 en-us", "GPL-3.0-or-later")
    if not shutil.which("espeak-ng"):
        s.available, s.why = False, "espeak-ng not installed"
    s.cmd, s.stdin_path = ESPEAK_WORDS_CMD, words_raw

    s.parse = lambda out: per_word(
        out, words, "espeak-ng", lambda l: espeak_to_arpabet(l, unknown.setdefault("espeak", {})))
    s.raw = {}
    systems.append(s)

    # edgenmt, model alone
    s = System("edgenmt", "edgenmt phonemize --no-lexicon", None)
    s.licence = edgenmt_licence()
    if not os.access(args.cli, os.X_OK) or not os.path.exists(args.phonemizer):
        s.available = False
        s.why = (f"{args.cli} or {args.phonemizer} missing (make build models)")
    s.cmd = [args.cli, "phonemize", "-m", args.phonemizer, "--no-lexicon", "--format", "arpabet"]
    s.stdin_path = words_raw

    s.parse = lambda out: per_word(out, words, "edgenmt phonemize", edgenmt_to_arpabet)
    systems.append(s)

    # Passes, interleaved across systems.
    for rep in range(args.repeat):
        for s in systems:
            if not s.available:
                continue
            try:
                wall, rss, out = run_timed(s.cmd, s.stdin_path, pin, tmp)
            except (RuntimeError, OSError) as e:
                s.available, s.why = False, f"failed: {e}"
                log(f"g2p_peers: {s.name}: {s.why}")
                continue
            s.times.append(wall)
            s.rss_kb.append(rss)
            if rep == 0:
                s.outputs.append(out)
            elif out != s.outputs[0]:
                s.result["output_differs_between_passes"] = True
            log(f"g2p_peers: pass {rep + 1}/{args.repeat} {s.name}: {wall:.2f} s")

    # Scores.
    for s in systems:
        if not s.available:
            continue
        try:
            hyps = s.parse(s.outputs[0])
        except RuntimeError as e:
            s.available, s.why = False, f"failed: {e}"
            continue
        a, b = score(hyps, refs), score(hyps, subset)
        med = statistics.median(s.times)
        s.result.update({
            "all": {"words": a["words"], "wer": a["wer"], "per": a["per"]},
            "subset": {"words": b["words"], "wer": b["wer"], "per": b["per"]},
            "words_per_s": len(words) / med, "seconds_median": med, "seconds": s.times,
            "peak_rss_kib": max(s.rss_kb),
            "unmapped_phones": unknown.get(s.key, {}),
            "samples": [{"word": words[i], "output": s.outputs[0].split("\n")[i]
                         if s.key != "festival_lts" else None, "arpabet": " ".join(hyps[words[i]]),
                         "reference": [" ".join(r) for r in refs[words[i]]]}
                        for i in range(0, len(words), max(1, len(words) // CHECK_WORDS))
                        ][:CHECK_WORDS],
        })
        s.hyps = hyps

    # eSpeak: one word per process on a sample, to check the batch's line alignment.
    es = next(s for s in systems if s.key == "espeak")
    if es.available:
        batch_lines = es.outputs[0].split("\n")
        mismatches = []
        for i in range(0, len(words), max(1, len(words) // CHECK_WORDS))[:CHECK_WORDS]:
            alone = subprocess.run(ESPEAK_WORDS_CMD[:-2] + [words[i]], capture_output=True,
                                   text=True).stdout.strip()
            if alone != batch_lines[i].strip():
                mismatches.append({"word": words[i], "alone": alone, "batch": batch_lines[i]})
        es.result["alignment_check"] = {"words": CHECK_WORDS, "mismatches": mismatches}
        if mismatches:
            log(f"g2p_peers: eSpeak alignment check: {len(mismatches)} of {CHECK_WORDS} "
                f"words differ from the batch: {mismatches[:3]}")

    # Real text: edgenmt phonemize (with its lexicon) against espeak-ng -q --ipa.
    text = {"file": args.text, "available": os.path.exists(args.text)}
    ed = next(s for s in systems if s.key == "edgenmt")
    text_rows = {"edgenmt": [args.cli, "phonemize", "-m", args.phonemizer, "--format", "ipa"],
                 "espeak": ESPEAK_CMD}
    text_ok = {"edgenmt": text["available"] and os.access(args.cli, os.X_OK) and
               os.path.exists(args.phonemizer),
               "espeak": text["available"] and shutil.which("espeak-ng") is not None}
    if text["available"]:
        with open(args.text, encoding="utf-8", errors="replace") as f:
            text["words"] = len(f.read().split())
        text["bytes"] = os.path.getsize(args.text)
        times = {k: [] for k in text_rows}
        rss = {k: [] for k in text_rows}
        for rep in range(args.repeat):
            for k, cmd in text_rows.items():
                if not text_ok[k]:
                    continue
                try:
                    wall, r, _ = run_timed(cmd, args.text, pin, tmp)
                except (RuntimeError, OSError) as e:
                    text_ok[k] = False
                    text[k] = {"why": f"failed: {e}"}
                    continue
                times[k].append(wall)
                rss[k].append(r)
                log(f"g2p_peers: text pass {rep + 1}/{args.repeat} {k}: {wall:.2f} s")
        for k in text_rows:
            if text_ok[k] and times[k]:
                med = statistics.median(times[k])
                text[k] = {"command": " ".join(text_rows[k]), "seconds": times[k],
                           "seconds_median": med, "words_per_s": text["words"] / med,
                           "peak_rss_kib": max(rss[k])}
            elif k not in text:
                text[k] = {"why": f"{args.cli} or {args.phonemizer} missing" if k == "edgenmt"
                           else "espeak-ng not installed"}
    shutil.rmtree(tmp, ignore_errors=True)

    sizes = data_sizes(args)
    size_key = {"flite_lts": "flite_lts", "flite_lts_apostrophes": "flite_lts",
                "festival_lts": "festival_lts", "espeak": "espeak", "edgenmt": "edgenmt"}

    # Table.
    print(f"G2P side by side (issue 59 §5): {args.test}, {len(words)} distinct words; subset: "
          f"the {len(subset)} absent from CMUdict 0.4 ({os.path.basename(args.cmudict04)}); "
          f"stressless, closest reference; one core{'' if pin else ' (not pinned)'}, median of "
          f"{args.repeat} passes")
    hdr = (f"{'system':<52} {'WER all':>8} {'PER all':>8} {'WER sub':>8} {'PER sub':>8} "
           f"{'words/s':>9} {'peak RSS':>10} {'data':>11}  licence")
    print(hdr)
    print("-" * len(hdr))
    for s in systems:
        if not s.available:
            print(f"{s.name:<52} not available: {s.why}")
            continue
        r = s.result
        data = sizes[size_key[s.key]]["bytes"]
        print(f"{s.name:<52} {r['all']['wer']:8.2f} {r['all']['per']:8.2f} "
              f"{r['subset']['wer']:8.2f} {r['subset']['per']:8.2f} {r['words_per_s']:9.0f} "
              f"{r['peak_rss_kib'] / 1024:7.1f} MiB {fmt(data, ',d'):>11}  {s.licence}")
    if text["available"]:
        print(f"\nReal text: {args.text} ({text['words']} words, whitespace-separated), one core, "
              f"median of {args.repeat}:")
        for k in text_rows:
            t = text[k]
            if "words_per_s" in t:
                print(f"  {t['command']:<60} {t['words_per_s']:9.0f} words/s  "
                      f"({t['seconds_median']:.3f} s, peak RSS {t['peak_rss_kib'] / 1024:.1f} MiB)")
            else:
                print(f"  {k}: not available ({t['why']})")
    for k, u in unknown.items():
        if u:
            print(f"warning: {k}: unmapped phones dropped: {u}")
    if es.available and es.result["alignment_check"]["mismatches"]:
        print(f"warning: eSpeak alignment check: "
              f"{len(es.result['alignment_check']['mismatches'])} of {CHECK_WORDS} differ")

    # JSON.
    doc = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu": cpu_model(), "cores_pinned": "taskset -c 0" if pin else None,
        "load_average": os.getloadavg(),
        "test": {"file": args.test, "words": len(words), "subset_words": len(subset),
                 "subset_definition": "test words with no entry of exactly that spelling in "
                                      + args.cmudict04,
                 "subset_with_apostrophe": sum("'" in w for w in subset),
                 "cmudict04_words": len(lex04)},
        "repeat": args.repeat,
        "versions": {p: version_of(p) for p in ("flite", "libflite1", "festival", "festlex-cmu",
                                                 "espeak-ng", "espeak-ng-data", "base-files")},
        "systems": {s.key: dict(name=s.name, available=s.available, why=s.why or None,
                                command=" ".join(s.cmd) if s.cmd else None, licence=s.licence,
                                data=sizes[size_key[s.key]], **s.result) for s in systems},
        "text": text,
        "mappings": {"flite_festival": FLITE_PHONES, "espeak_ipa": ESPEAK_IPA,
                     "espeak_rules": ["ɪ followed by eSpeak's empty `;` phoneme -> IY",
                                      "ɹ after ɚ/ɜː dropped (linking r)",
                                      "R after R dropped (ʊɹ/ɑːɹ + linking r)"]},
        "seconds_total": time.perf_counter() - t_start,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
    print(f"\nJSON: {args.json}; whole run {doc['seconds_total']:.0f} s")

    def wer(key, part):
        s = next(s for s in systems if s.key == key)
        return fmt(s.result[part]["wer"], ".2f") if s.available else "na"

    def wps(key):
        return fmt(text.get(key, {}).get("words_per_s"), ".0f")
    print(f"g2p_peers edgenmt_wer={wer('edgenmt', 'all')} flite_lts_wer={wer('flite_lts', 'all')} "
          f"espeak_wer={wer('espeak', 'all')} subset_edgenmt_wer={wer('edgenmt', 'subset')} "
          f"subset_flite_wer={wer('flite_lts', 'subset')} "
          f"subset_espeak_wer={wer('espeak', 'subset')} "
          f"edgenmt_text_words_per_s={wps('edgenmt')} espeak_text_words_per_s={wps('espeak')}")


if __name__ == "__main__":
    main()
