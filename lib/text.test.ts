/** Tokens word by word equal the tokens of the joined text, whatever the words hold. */
import { describe, expect, it } from 'vitest';
import { hash32, Sfc32 } from './rng.ts';
import { tokenize, tokenizeWords } from './text.ts';

// letters, digits, punctuation, a long run, and characters whose case or class is special:
// Greek capital sigma (final form depends on what follows), dotted I (lower-cases to two
// characters), the Kelvin sign (lower-cases to ASCII k), accents, CJK, a zero-width no-break space
const PIECES = [
  'paper',
  'Paper',
  'PAPERS',
  'the',
  'and',
  '2024',
  'x',
  'ab',
  'web-crawler',
  'e.g.',
  "it's",
  '(see',
  'ΟΔΟΣ',
  'Σ',
  'İstanbul',
  '\u212Aelvin',
  'café',
  'naïve',
  '東京大学',
  'data_mining',
  'a'.repeat(41),
  'b'.repeat(40),
  '\uFEFF',
  '\u00A0',
  '\t',
  '\n',
  ' ',
  '--',
  'x1y2',
  'über-cool',
  'ΣΑΣ.',
  'Σ,',
];

describe('tokenizeWords', () => {
  it('gives tokenize(words.join(" ")) for words split at whitespace, in 500 random texts', () => {
    for (let trial = 0; trial < 500; trial++) {
      const rng = new Sfc32(hash32(trial), hash32(trial, 1), hash32(trial, 2), 8);
      let text = '';
      for (let i = rng.int(30); i > 0; i--) text += PIECES[rng.int(PIECES.length)] + (rng.chance(0.7) ? ' ' : '');
      const words = text.split(/\s+/).filter(Boolean);
      expect(tokenizeWords(words), JSON.stringify(text)).toEqual(tokenize(words.join(' ')));
      // appended to what the caller has (a page's title)
      expect(tokenizeWords(words, tokenize('Title words'))).toEqual(tokenize(`Title words ${words.join(' ')}`));
    }
  });
});
