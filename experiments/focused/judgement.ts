/**
 * The crawler's relevance judgement scored against ground truth on a held-out site's pages: what a
 * report says the judgement it rests on is worth.
 */
import { judgedTokens, type RelevanceJudge, Topic } from '../../crawler/focused/index.ts';
import type { Env } from './env.ts';
import { r6 } from './meter.ts';
import { rocAuc } from '../../lib/leak-probe.ts';
import type { JudgementQuality } from './rows.ts';

/** The judgement's quality on a site's labelled pages (as a crawler reads them) against ground truth. */
export function judgementQuality(
  env: Env,
  site: string,
  keywords: readonly string[],
  judge: RelevanceJudge,
): JudgementQuality {
  // a learned judgement is of HTML pages (its target); scored over documents too (placeholders on
  // an archive, which it never calls relevant) its AUC counted easy negatives (issue #51)
  const all = env.training.labelled(site);
  const pages = judge.mode === 'learned' ? all.filter((p) => p.page.kind === 'html') : all;
  const topic = new Topic(keywords);
  const tokens = pages.map((p) => judgedTokens(p.page));
  for (const t of tokens) topic.addDocument(t);
  const scores: number[] = [];
  const said: boolean[] = [];
  const truth = pages.map((p) => p.relevant);
  pages.forEach((p, i) => {
    const j = judge.judge(topic, { url: p.url, kind: p.page.kind, text: p.page.text }, tokens[i]);
    scores.push(j.score ?? j.relevance);
    said.push(j.relevant);
  });
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < pages.length; i++) {
    if (said[i] && truth[i]) tp++;
    else if (said[i]) fp++;
    else if (truth[i]) fn++;
  }
  const positives = tp + fn;
  const n = pages.length || 1;
  return {
    mode: judge.mode,
    pages: pages.length,
    positives,
    auc: r6(rocAuc(scores, truth)),
    precision: r6(tp + fp ? tp / (tp + fp) : 0),
    recall: r6(positives ? tp / positives : 0),
    accuracy: r6((pages.length - fp - fn) / n),
    allNegative: r6(1 - positives / n),
    threshold: judge.threshold,
  };
}
