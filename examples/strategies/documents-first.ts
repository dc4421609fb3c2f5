/**
 * A probe, not a crawler worth publishing: links whose URL ends in .pdf or .ps (compressed forms
 * included) first, everything else breadth-first. It reads no topic and learns nothing, so it is
 * the rule that shows what a target defined by URL gives away for free: where the target is
 * "documents by URL" (the paper's papers on the WebKB departments), the report must show this
 * rule beside the strategies (DEVELOPERS.md, "Nothing may mark relevance for free").
 *
 *   "strategies": [..., { "name": "documents-first", "module": "examples/strategies/documents-first.ts" }]
 */
import type { PageDecision, PageView, ParsedLink, Strategy } from '../../crawler/index.ts';
import { hasExtension, PAPER_EXTENSIONS } from '../../lib/documents.ts';
import type { StrategyContext } from '../../experiments/strategies.ts';

export default function documentsFirst(context: StrategyContext): Strategy {
  return {
    name: context.name ?? 'documents-first',
    seedScore: () => 0,
    onPage(_page: PageView, candidates: readonly ParsedLink[]): PageDecision {
      // equal scores keep the frontier's FIFO order: breadth-first within each class
      return { scores: candidates.map((l) => (hasExtension(l.url, PAPER_EXTENSIONS) ? 1 : 0)) };
    },
  };
}
