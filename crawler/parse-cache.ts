/**
 * Parsed pages by content, shared by whoever parses the same responses the same way: the
 * strategies of one experiment job crawl one site one after another, and each parsed the same
 * pages again (12% of an experiment's CPU, docs/benchmarks.md); an experiment's training reads
 * every page of the departments its crawls then fetch. A page is found by the parse options
 * (normalisation and around-words), its URL, Content-Type and the SHA-1 of its body, so a changed
 * response, or the same one parsed with other options, is parsed anew. Entries are kept in
 * insertion order and the oldest dropped past `max`. Parsed pages are never changed after
 * parsing (crawler/outcomes.ts copies what it filters), so sharing them is safe.
 */
import { createHash } from 'node:crypto';
import { parseBody, type ParsedPage } from './parser.ts';
import type { NormalizeOptions } from './url.ts';

/** The parse options as a key part, remembered per options object (a crawl passes one settings object). */
const optionKeys = new WeakMap<NormalizeOptions, Map<number, string>>();
function optionsKey(norm: NormalizeOptions, aroundWords: number): string {
  let byWords = optionKeys.get(norm);
  if (!byWords) optionKeys.set(norm, (byWords = new Map()));
  let k = byWords.get(aroundWords);
  if (k === undefined) {
    const { stripParams, maxUrlLength, maxLinksPerPage, maxLinkBytesPerPage, maxParseTags, followRefresh } = norm;
    k = JSON.stringify([
      stripParams,
      maxUrlLength ?? null,
      maxLinksPerPage ?? null,
      maxLinkBytesPerPage ?? null,
      maxParseTags ?? null,
      followRefresh ?? true,
      aroundWords,
    ]);
    byWords.set(aroundWords, k);
  }
  return k;
}

export class ParseCache {
  private readonly pages = new Map<string, ParsedPage>();
  hits = 0;
  misses = 0;
  constructor(private readonly max = 8192) {}

  /** parseBody() of this response with these options, once: later calls return the same page. */
  parse(
    body: Buffer,
    contentType: string | undefined,
    url: string,
    norm: NormalizeOptions,
    aroundWords: number,
  ): ParsedPage {
    const k = `${optionsKey(norm, aroundWords)}\0${url}\0${contentType ?? ''}\0${body.length}\0${createHash('sha1').update(body).digest('base64')}`;
    const hit = this.pages.get(k);
    if (hit) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const p = parseBody(body, contentType, url, norm, aroundWords);
    this.pages.set(k, p);
    if (this.pages.size > this.max) this.pages.delete(this.pages.keys().next().value as string);
    return p;
  }
}
