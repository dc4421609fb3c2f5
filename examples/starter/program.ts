/**
 * A program using the harness as a library (crawler-harness init wrote it; `npm run program`): the
 * study's config at its quick size, run in this process, and each strategy's mean recall AUC
 * printed. The library's face: node_modules/crawler-harness/index.ts (its .d.ts in dist/).
 */
import { loadExperiment, runExperiment } from 'crawler-harness';

const cfg = loadExperiment('experiments/study.json', { quick: true });
const result = await runExperiment(cfg, { workers: 0 });
for (const s of cfg.strategies) {
  const runs = result.summaries.filter((r) => r.strategy === s);
  const auc = runs.reduce((a, r) => a + r.recall_auc, 0) / runs.length;
  console.log(`${s.padEnd(12)} recall AUC ${auc.toFixed(3)} over ${runs.length} runs`);
}
