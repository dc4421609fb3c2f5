/**
 * A page's and a link's tokens, remembered with the parsed objects they come from. An experiment
 * parses each page once per seed (crawler/parse-cache.ts) and hands the same page and link
 * objects to training (every page of the departments) and to every strategy's crawl, which all
 * tokenised them again: the judged tokens of each page (three focused strategies a job) and the
 * features of each link (training, then future and adaptive). Weak maps: the memory lives as long
 * as the parsed page; readers never change the arrays.
 */
import { tokenize, tokenizeWords } from '../../lib/text.ts';
import type { ParsedLink } from '../parser.ts';
import { linkFeatures } from './features.ts';

/** Characters of a page's text that are judged: enough for its topic, bounded for hub pages. */
export const JUDGED_CHARS = 20_000;

interface PageText {
  title: string;
  text: string;
  /** The text's words, when the parser kept them (text is their join with single spaces). */
  readonly words?: readonly string[];
}

/** Tokens of title and whole text, by the page's words (pages whose text is at most JUDGED_CHARS). */
const byWords = new WeakMap<readonly string[], { title: string; tokens: string[] }>();

/**
 * Judged tokens of recent pages without kept words, by text: bounded, the oldest dropped first.
 */
const byText = new Map<string, { title: string; tokens: string[] }>();
const BY_TEXT = 8192;

/** Characters of the words joined with single spaces, without joining them. */
function joinedLength(words: readonly string[]): number {
  let n = words.length ? words.length - 1 : 0;
  for (let i = 0; i < words.length; i++) n += words[i].length;
  return n;
}

/** Tokens of a page from its kept words, if its text is short enough to be judged whole. */
function wholeByWords(page: PageText): string[] | null {
  const { title, words } = page;
  if (!words) return null;
  const hit = byWords.get(words);
  if (hit && hit.title === title) return hit.tokens;
  if (joinedLength(words) > JUDGED_CHARS) return null;
  // tokens of `${title} ${text}`: the title's, then the words' (lib/text.ts tokenizeWords)
  const tokens = tokenizeWords(words, tokenize(title));
  byWords.set(words, { title, tokens });
  return tokens;
}

/** Tokens of a page as every strategy judges it: title and text, the text bounded. */
export function judgedTokens(page: PageText): string[] {
  const whole = wholeByWords(page);
  if (whole) return whole;
  const { title, text } = page;
  const hit = byText.get(text);
  if (hit && hit.title === title) return hit.tokens;
  const tokens = tokenize(`${title} ${text.length > JUDGED_CHARS ? text.slice(0, JUDGED_CHARS) : text}`);
  if (hit) byText.delete(text);
  else if (byText.size >= BY_TEXT) byText.delete(byText.keys().next().value as string);
  byText.set(text, { title, tokens });
  return tokens;
}

/** Tokens of a page's title and whole text (calibration's page vectors); judged tokens when they are the same. */
export function wholeTokens(page: PageText): string[] {
  return wholeByWords(page) ?? tokenize(`${page.title} ${page.text}`);
}

/** Features of a link on a page titled sourceTitle, by link object. */
const features = new WeakMap<ParsedLink, { title: string; features: string[] }>();

/** linkFeatures() of a parsed link on its page, made once per link object and page title. */
export function featuresOfLink(l: ParsedLink, sourceTitle: string): string[] {
  const hit = features.get(l);
  if (hit && hit.title === sourceTitle) return hit.features;
  const f = linkFeatures({
    url: l.url,
    anchor: l.anchor,
    around: l.aroundList ?? l.around,
    heading: l.heading,
    sourceTitle,
  });
  features.set(l, { title: sourceTitle, features: f });
  return f;
}
