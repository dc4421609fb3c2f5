/**
 * A probe, not a crawler to publish: links whose URL ends in a document extension (.pdf, .ps,
 * .ps.gz, .dvi ...; lib/document-types.ts) first, everything else breadth-first. It reads no topic and
 * learns nothing, so it shows what a web gives away for free: where it finds the target as well
 * as the topical strategies do, the file type marks relevance and the report says so
 * (DEVELOPERS.md: "Nothing may mark relevance for free").
 */
import { DEFAULT_DOCUMENT_EXTENSIONS, hasExtension } from '../../lib/document-types.ts';
import type { ParsedLink } from '../parser.ts';
import { defineStrategy, type PageDecision, type PageView, type Strategy } from '../strategy.ts';

export class DocsFirstStrategy implements Strategy {
  readonly name = 'docs-first';
  constructor(private readonly extensions: readonly string[] = DEFAULT_DOCUMENT_EXTENSIONS) {}
  seedScore(): number {
    return 0;
  }
  onPage(_page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    // equal scores keep the frontier's FIFO order: breadth-first within each class
    return { scores: candidates.map((l) => (hasExtension(l.url, this.extensions) ? 1 : 0)) };
  }
}

export const DOCS_FIRST = defineStrategy({
  name: 'docs-first',
  rank: 40,
  summary: 'probe: links to document files first, else breadth-first (no topic, no training)',
  reads: 'probe',
  settings: [],
  style: ['#999999', [5, 2, 1, 2]],
  make: () => new DocsFirstStrategy(),
});
