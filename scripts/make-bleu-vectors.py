#!/usr/bin/env python3
"""make-bleu-vectors.py OUT_DIR [SEED] [CASES]: writes BLEU/chrF test vectors in the format of
shared/testvectors/bleu (NAME/hyp.txt, ref.txt, expected.json), computed with sacreBLEU's defaults,
for `mvn test -Dtest='*VectorsTest' -Dnmt.vectors.bleu=OUT_DIR`.

The cases are random lines full of what tokenizers get wrong: punctuation beside digits, SGML
entities, Unicode whitespace (U+00A0, U+0085, U+2028, U+001C, ...), zero-width characters, astral
characters, '\\r', empty lines, a byte order mark; plus a few fixed edge cases. expected.json adds
sacreBLEU's printed lines (bleu_line, chrf_line), which the tests compare when present.
Needs sacrebleu (2.6.0 made the shared vectors); files are read back as its command line reads them.
"""
import json
import os
import random
import sys

from sacrebleu.metrics import BLEU, CHRF

SPACES = [' ', '\t', '\u00a0', '\u2009', '\u3000', '\x1c', '\x85', '\u202f', '\u2028', '\x0b', '\x0c', '\r']
NON_SPACES = ['\u200b', '\ufeff']
PIECES = ['Haus', 'haus', 'der', 'Mann', '.', ',', '3.14', '1,000', '5-6', 'a-b', '$5.00.', '&amp;lt;', '&quot;',
          '&amp;', '&gt;', '<skipped>', '(hi)', "l'eau", 'e.g.', '...', '--', '\U0001F600', '\U0001D518\U0001D52B',
          '\u6f22\u5b57', '\u00df', '\u00c4', '9.', '.9', 'x,y', '7-', '-7', '{a}', '[b]', '`c`', '~', '|', '\\',
          '^_^', '@user', 'a/b', '"q"', '#1', '%', '+', '=', ':', ';', '?', '!', '\u00e9', 'e\u0301']


def write(out, name, hyps, refs):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    for file, lines in (('hyp.txt', hyps), ('ref.txt', refs)):
        with open(os.path.join(folder, file), 'w', encoding='utf-8', newline='') as f:
            f.write(''.join(line + '\n' for line in lines))
    # As sacreBLEU's command line reads files: split at '\n', rstrip() each line.
    hyps = [h.rstrip() for h in hyps]
    refs = [r.rstrip() for r in refs]
    bleu, chrf = BLEU(), CHRF()
    b = bleu.corpus_score(hyps, [refs])
    c = chrf.corpus_score(hyps, [refs])
    expected = dict(bleu=b.score, counts=b.counts, totals=b.totals, precisions=b.precisions, bp=b.bp,
                    sys_len=b.sys_len, ref_len=b.ref_len, chrf=c.score,
                    bleu_signature=str(bleu.get_signature()), chrf_signature=str(chrf.get_signature()),
                    bleu_line=b.format(), chrf_line=c.format())
    with open(os.path.join(folder, 'expected.json'), 'w', encoding='utf-8') as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)


def line(rng, max_words):
    text = ''
    for _ in range(rng.randint(0, max_words)):
        text += rng.choice(PIECES + NON_SPACES) + (rng.choice(SPACES) if rng.random() < 0.3 else ' ')
    if rng.random() < 0.3:
        text = rng.choice(SPACES) + text
    return text


def mutate(rng, ref):
    out = []
    for token in ref.split(' '):
        x = rng.random()
        if x < 0.15:
            continue
        out.append(rng.choice(PIECES) if x < 0.3 else token)
        if rng.random() < 0.1:
            out.append(rng.choice(PIECES))
    return ' '.join(out)


def main():
    out = sys.argv[1]
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
    cases = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    for k in range(cases):
        refs = [line(rng, rng.choice([0, 1, 2, 3, 8, 20])) for _ in range(rng.randint(1, 40))]
        hyps = [mutate(rng, r) if rng.random() < 0.8 else line(rng, 5) for r in refs]
        write(out, f'fuzz_{k:03d}', hyps, refs)
    write(out, 'all_empty_hyps', ['', '', ''], ['a b c', 'd', ''])
    write(out, 'all_empty', ['', ''], ['', ''])
    write(out, 'one_token_lines', ['a', 'b', 'c'], ['a', 'b', 'd'])
    write(out, 'no_overlap', ['x y z w', 'q r'], ['a b c d', 'e f'])
    write(out, 'perfect_short', ['a b', 'c'], ['a b', 'c'])
    write(out, 'exp_smoothing', ['a b c d e', 'f g'], ['a b x d e', 'f g'])
    write(out, 'byte_order_mark', ['\ufeffThe cat sat .', 'a dog'], ['The cat sat .', 'a dog'])


if __name__ == '__main__':
    main()
