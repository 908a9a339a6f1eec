#!/usr/bin/python3
"""Agreement of our ARPAbet -> IPA converter with eSpeak NG (en-us) on a CMUdict sample.

Takes every Nth plain alphabetic CMUdict entry (no alternates such as WORD(1), no apostrophes),
converts its phonemes with the compiled tools/g2p/ipa_convert (WriteIpaWord) and its spelling with
`espeak-ng -q --ipa -v en-us`, and prints word-level exact-match agreement and symbol-level
agreement (1 - Levenshtein distance over Unicode code points / eSpeak's length), each with the
stress marks and without them. The figures in docs/IPA.md come from:

  g++ -std=c++17 -O2 -I frontend/src frontend/src/arpabet.cc frontend/src/arpabet_ipa.cc \\
      tools/g2p/ipa_convert.cc -o /tmp/ipa_convert
  tools/g2p/ipa_agreement.py --dict build/cmudict/dict.txt --every 40 --converter /tmp/ipa_convert

Standard library only; needs espeak-ng on PATH (or --espeak).
"""
import argparse
import re
import subprocess
import sys

STRESS = str.maketrans('', '', '\u02c8\u02cc')  # ˈ ˌ


def sample(path, every, offset):
    rows = []
    plain = 0
    with open(path, encoding='latin-1') as f:
        for line in f:
            if line.startswith(';;;'):
                continue
            word, sep, phones = line.rstrip('\r\n').partition('  ')
            if not sep or not re.fullmatch(r'[A-Z]+', word):
                continue
            if plain % every == offset:
                rows.append((word, phones.strip()))
            plain += 1
    return rows


def run_lines(cmd, lines):
    out = subprocess.run(cmd, input=''.join(l + '\n' for l in lines), capture_output=True,
                         text=True, encoding='utf-8', check=False)
    if out.returncode != 0:
        sys.exit('%s failed (%d): %s' % (cmd[0], out.returncode, out.stderr.strip()))
    return out.stdout.splitlines()


def levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dict', required=True, help='CMUdict 0.7b text (latin-1)')
    ap.add_argument('--every', type=int, default=40, help='take every Nth plain entry')
    ap.add_argument('--offset', type=int, default=0, help='which of the N (0 .. N-1)')
    ap.add_argument('--converter', required=True, help='compiled tools/g2p/ipa_convert')
    ap.add_argument('--espeak', default='espeak-ng')
    ap.add_argument('--voice', default='en-us')
    ap.add_argument('--show', type=int, default=0, help='print the first N disagreements')
    ap.add_argument('--strip-stress', action='store_true',
                    help="drop CMUdict's stress digits first, as a stressless model's output")
    args = ap.parse_args()

    rows = sample(args.dict, args.every, args.offset)
    if not rows:
        sys.exit('no entries sampled')
    if args.strip_stress:
        rows = [(w, re.sub(r'[012]', '', p)) for w, p in rows]
    ours = run_lines([args.converter], ['%s\t%s' % r for r in rows])
    # One word a line: eSpeak answers each line with one line (checked below).
    theirs = run_lines([args.espeak, '-q', '--ipa', '-v', args.voice],
                       [w.lower() for w, _ in rows])
    if len(ours) != len(rows) or len(theirs) != len(rows):
        sys.exit('line counts differ: %d words, %d converter, %d espeak-ng lines'
                 % (len(rows), len(ours), len(theirs)))

    exact = exact_ns = dist = dist_ns = ref = ref_ns = shown = 0
    for (word, phones), our_line, their in zip(rows, ours, theirs):
        got_word, _, got = our_line.partition('\t')
        if got_word != word:
            sys.exit('converter output out of order at %s' % word)
        want = their.strip()
        got_ns, want_ns = got.translate(STRESS), want.translate(STRESS)
        exact += got == want
        exact_ns += got_ns == want_ns
        dist += levenshtein(got, want)
        dist_ns += levenshtein(got_ns, want_ns)
        ref += len(want)
        ref_ns += len(want_ns)
        if got != want and shown < args.show:
            print('%-20s %-30s ours %-20s espeak %s' % (word, phones, got, want))
            shown += 1

    version = subprocess.run([args.espeak, '--version'], capture_output=True, text=True,
                             check=False).stdout.strip()
    n = len(rows)
    print('espeak-ng: %s' % version)
    print('sample: %d words (every %d plain entry from %d) of %s, voice %s%s'
          % (n, args.every, args.offset, args.dict, args.voice,
             ', stress digits stripped' if args.strip_stress else ''))
    print('word exact match, stress marks included: %6.2f %% (%d)' % (100.0 * exact / n, exact))
    print('word exact match, stress marks excluded: %6.2f %% (%d)'
          % (100.0 * exact_ns / n, exact_ns))
    print('symbol agreement, stress marks included: %6.2f %%' % (100.0 * (1 - dist / ref)))
    print('symbol agreement, stress marks excluded: %6.2f %%' % (100.0 * (1 - dist_ns / ref_ns)))


if __name__ == '__main__':
    main()
