/**
 * Parsed pages by content, shared by crawls that fetch the same pages with the same settings:
 * the strategies of one experiment job crawl one site one after another, and each parsed the
 * same pages again (12% of an experiment's CPU, docs/benchmarks.md). A page is found by its URL,
 * Content-Type and the SHA-1 of its body, so a changed response is parsed anew; entries are kept
 * in insertion order and the oldest dropped past `max`. Parsed pages are never changed after
 * parsing (crawler/outcomes.ts copies what it filters), so sharing them is safe. One cache per
 * set of crawl settings: the normalisation options and around-words are not part of the key.
 */
import { createHash } from 'node:crypto';
import type { ParsedPage } from './parser.ts';

export class ParseCache {
  private readonly pages = new Map<string, ParsedPage>();
  hits = 0;
  misses = 0;
  constructor(private readonly max = 8192) {}

  private key(url: string, contentType: string | undefined, body: Buffer): string {
    return `${url}\0${contentType ?? ''}\0${body.length}\0${createHash('sha1').update(body).digest('base64')}`;
  }

  /** The page parsed once for this response, or parse(), kept. */
  get(url: string, contentType: string | undefined, body: Buffer, parse: () => ParsedPage): ParsedPage {
    const k = this.key(url, contentType, body);
    const hit = this.pages.get(k);
    if (hit) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const p = parse();
    this.pages.set(k, p);
    if (this.pages.size > this.max) this.pages.delete(this.pages.keys().next().value as string);
    return p;
  }
}
