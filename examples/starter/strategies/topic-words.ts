/**
 * Your strategy (crawler-harness init wrote this file; change it). A strategy module default-exports
 * a factory (context) => Strategy. The engine calls seedScore for the start pages, then onPage once
 * per fetched page with that page's new in-scope links; it crawls the link of highest priority next.
 *
 * This one: a link's priority is the share of its words (anchor, the words around it, the URL's
 * path) that are topic words. `context.keywords` are the topic's terms as the keyword file writes
 * them ("supervised", "semi-supervised"); linkWords() gives stems ("supervis"), so the terms are
 * stemmed with tokenize() first. `context.params` holds the config's "params" for this strategy,
 * `context.seed` the run's seed. The contract: node_modules/crawler-harness/docs/focused.md,
 * "Bring your own strategy".
 */
import {
  linkWords,
  type PageDecision,
  type ParsedLink,
  type Strategy,
  type StrategyContext,
  tokenize,
} from 'crawler-harness';

/** How the figures draw it: a colour and a dash pattern. */
export const style = ['#CC79A7', [4, 2]];

export default function topicWords(context: StrategyContext): Strategy {
  const topic = new Set((context.keywords ?? []).flatMap((k) => tokenize(k)));
  return {
    name: context.name ?? 'topic-words',
    seedScore: () => 1,
    onPage: (_page, links: readonly ParsedLink[]): PageDecision => ({
      scores: links.map((l) => {
        const words = linkWords(l);
        return words.length ? words.filter((w) => topic.has(w)).length / words.length : 0;
      }),
    }),
  };
}
