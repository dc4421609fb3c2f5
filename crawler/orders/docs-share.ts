/**
 * A probe, not a crawler to publish (issue #83): each link scored by the share of its page's links
 * whose URL names a document file (.pdf, .ps ...; lib/document-types.ts), so the links of the pages
 * richest in documents come first (a publication list's), ties breadth-first. It reads no topic and
 * learns nothing: the learnt leak probe (lib/leak-probe.ts) reads this share among its tokens, and
 * read alone it found papers better than the whole probe said in one department, so it runs beside
 * the strategies as docs-first and url-prior do, and the report shows what it gives away.
 */
import { DEFAULT_DOCUMENT_EXTENSIONS, hasExtension } from '../../lib/document-types.ts';
import type { ParsedLink } from '../parser.ts';
import { defineStrategy, type PageDecision, type PageView, type Strategy } from '../strategy.ts';

export class DocsShareStrategy implements Strategy {
  readonly name = 'docs-share';
  constructor(private readonly extensions: readonly string[] = DEFAULT_DOCUMENT_EXTENSIONS) {}
  seedScore(): number {
    return 0;
  }
  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    let documents = 0;
    for (const l of page.links) if (hasExtension(l.url, this.extensions)) documents++;
    // one score for every link of the page: the frontier's FIFO order breaks ties, breadth-first
    const share = page.links.length ? documents / page.links.length : 0;
    return { scores: candidates.map(() => share) };
  }
}

export const DOCS_SHARE = defineStrategy({
  name: 'docs-share',
  rank: 45,
  summary: "probe: each link by its page's share of links to document files (no topic, no training)",
  reads: 'probe',
  settings: [],
  style: ['#999999', [1, 2]],
  make: () => new DocsShareStrategy(),
});
