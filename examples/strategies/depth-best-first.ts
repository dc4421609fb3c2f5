/**
 * An example strategy module: best-first with a depth penalty. A link's priority is its source
 * page's similarity to the topic, discounted by how deep the link lies below the start page:
 *
 *   priority(l) = cos(q, source page) x decay^depth(l)
 *
 * so that, of two equally topical pages, the one closer to the start page is expanded first.
 *
 * Run it:
 *   npm run crawl -- --web data/webs/small.json --strategy examples/strategies/depth-best-first.ts \
 *     --param decay=0.8 --max-pages 200 --delay-ms 0 --out out/mine
 * or in an experiment config:
 *   "strategies": ["bfs", "best-first",
 *     { "name": "depth-best-first", "module": "examples/strategies/depth-best-first.ts", "params": { "decay": 0.8 } }]
 *
 * The module default-exports a factory (context) => Strategy (experiments/strategy-registry.ts,
 * StrategyContext): context.keywords is the topic, context.params the config's parameters,
 * context.seed the run's seed, context.judge() the experiment's relevance judgement and
 * context.models() the models trained on the other sites (when the experiment trains).
 */
// the harness by its package name, as in any project that installed it (a clone resolves the name
// to its sources: lib/self-import.ts)
import {
  judgedTokens,
  type PageDecision,
  type PageView,
  type ParsedLink,
  type Strategy,
  type StrategyContext,
  Topic,
} from 'crawler-harness';

export default function depthBestFirst(context: StrategyContext): Strategy {
  if (!context.keywords) throw new Error('depth-best-first needs the topic keywords');
  const decay = Number(context.params?.decay ?? 0.8);
  if (!(decay > 0 && decay <= 1)) throw new Error(`decay must be in (0, 1], got ${context.params?.decay}`);
  const topic = new Topic(context.keywords);
  const judge = context.judge?.(); // the experiment's relevance judgement, if it has one
  let scored = 0;
  return {
    name: context.name ?? 'depth-best-first',
    // seeds come first
    seedScore: () => 1,
    // called once per fetched page, with the page's new in-scope links: one priority per link
    onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
      const tokens = judgedTokens(page); // title and text, stemmed, as the built-ins read a page
      topic.addDocument(tokens); // idf is learnt from the pages fetched so far
      const similarity = topic.similarity(tokens);
      scored += candidates.length;
      const priority = similarity * decay ** (page.depth + 1);
      // the judgement is only logged (crawl.jsonl's relevance); the evaluator uses ground truth
      const relevance = judge?.judge(topic, page, tokens).relevance;
      return { relevance, scores: candidates.map(() => priority) };
    },
    // counters for summary.json
    stats: () => ({ linksScored: scored }),
  };
}
