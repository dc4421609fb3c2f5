/**
 * Vocabularies of the synthetic web, loaded from data/vocab/topics.json: computing sub-topics
 * (what relevant pages are about), off-topic vocabularies, common English words, generic link
 * words and person names. Topic ids: 0..C-1 are computing sub-topics, C..C+O-1 off-topic ones.
 */
import { readFileSync } from 'node:fs';
import { shipped } from '../lib/paths.ts';
import { ZipfSampler } from './web-rng.ts';

interface TopicsFile {
  computing: Record<string, { label: string; modifiers: string[]; heads: string[] }>;
  offtopic: Record<string, string[]>;
  common: string[];
  generic: Record<string, string[] | string>;
  names: { first: string[]; last: string[] };
}

export interface Topic {
  id: number;
  key: string;
  label: string;
  computing: boolean;
  /** Words in rank order (rank 0 is the most frequent under Zipf). */
  words: string[];
  zipf: ZipfSampler;
}

export interface Vocab {
  topics: Topic[];
  computingCount: number;
  common: string[];
  commonZipf: ZipfSampler;
  generic: { papers: string[]; research: string[]; people: string[]; nav: string[]; misc: string[] };
  first: string[];
  last: string[];
}

const VOCAB_FILE = shipped('data/vocab/topics.json');

const cache = new Map<number, Vocab>();

/** Loads the vocabularies; Zipf samplers are built for the given exponent and cached. */
export function loadVocab(zipfExponent: number): Vocab {
  const hit = cache.get(zipfExponent);
  if (hit) return hit;
  const file = JSON.parse(readFileSync(VOCAB_FILE, 'utf8')) as TopicsFile;
  const topics: Topic[] = [];
  for (const [key, t] of Object.entries(file.computing)) {
    // interleave heads and modifiers so that the top ranks hold both kinds of word
    const words: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < Math.max(t.heads.length, t.modifiers.length); i++) {
      for (const w of [t.heads[i], t.modifiers[i]])
        if (w && !seen.has(w)) {
          seen.add(w);
          words.push(w);
        }
    }
    topics.push({
      id: topics.length,
      key,
      label: t.label,
      computing: true,
      words,
      zipf: new ZipfSampler(words.length, zipfExponent),
    });
  }
  const computingCount = topics.length;
  for (const [key, words] of Object.entries(file.offtopic)) {
    topics.push({
      id: topics.length,
      key,
      label: key,
      computing: false,
      words,
      zipf: new ZipfSampler(words.length, zipfExponent),
    });
  }
  const g = file.generic as Record<string, string[]>;
  // pages are rendered without HTML escaping: every word must be plain (letters, digits, - ' . ~ space)
  const plain = /^[\p{L}0-9 .'~-]+$/u;
  const all = [
    ...topics.flatMap((t) => t.words),
    ...file.common,
    ...file.names.first,
    ...file.names.last,
    ...['papers', 'research', 'people', 'nav', 'misc'].flatMap((k) => g[k]),
  ];
  const bad = all.find((w) => !plain.test(w) || w.includes("'"));
  if (bad !== undefined) throw new Error(`${VOCAB_FILE}: "${bad}" is not a plain word`);
  const vocab: Vocab = {
    topics,
    computingCount,
    common: file.common,
    commonZipf: new ZipfSampler(file.common.length, zipfExponent),
    generic: { papers: g.papers, research: g.research, people: g.people, nav: g.nav, misc: g.misc },
    first: file.names.first,
    last: file.names.last,
  };
  cache.set(zipfExponent, vocab);
  return vocab;
}

export function topicByKey(v: Vocab, key: string): Topic {
  const t = v.topics.find((x) => x.key === key);
  if (!t) throw new Error(`unknown topic ${key}`);
  return t;
}
