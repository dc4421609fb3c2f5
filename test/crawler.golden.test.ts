/**
 * The engine's behaviour pinned: deterministic crawls of small.json (seed 1, faults on, 600
 * pages) by the crawl CLI, one per code path of the engine (plain order, frontier updates,
 * Best-N-First batches, rescued links, the adaptive crawler's retraining, its threads' re-admitted
 * links; adaptive-page, the former default adaptive, keeps the former adaptive's hashes), must write the very
 * crawl.jsonl, frontier.log and counters.log whose SHA-256 test/fixtures/golden-logs.json holds.
 * The hashes were taken at 976c255, before the engine was split by responsibility (#18 item 2).
 * The web is small.json with its 503s asking for Retry-After 0 instead of 1 s, its slow pages
 * not delayed, and retries backing off from 20 ms: the logs are timing-free in deterministic mode
 * (the hashes are the same either way), and the crawls took 10-12 s each, mostly waiting.
 * The CLI runs in this process, one crawl after another (test/cli-inprocess.ts): the same script
 * and code paths, without five times node, tsx and every import (about 10 CPU-s instead of 25).
 * After an intended change of behaviour: GOLDEN_UPDATE=1 npx vitest run test/crawler.golden.test.ts
 * rewrites the fixture; say why in the commit.
 * The web keeps the document names and bodies from before issue #52 (structure.documentNames 0,
 * documentBodies 0): the logs pin the engine, not the generator's documents, and the unchanged
 * hashes show that the knobs at 0 give the former web byte for byte.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { smallWebWithoutWaits } from './helpers.ts';
import { scaled } from './speed.ts';

const FIXTURE = 'test/fixtures/golden-logs.json';
const STRATEGIES = ['bfs', 'opic', 'best-n-first', 'shark-search', 'adaptive', 'adaptive-page'];
const FILES = ['crawl.jsonl', 'frontier.log', 'counters.log'];

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

async function crawl(strategy: string, web: string): Promise<Record<string, string>> {
  const out = mkdtempSync(join(tmpdir(), `golden-${strategy}-`));
  const r = await runCliInProcess('experiments/cli/crawl.ts', [
    ...['--web', web, '--seed', '1', '--strategy', strategy],
    ...['--max-pages', '600', '--delay-ms', '0', '--retry-base-ms', '20', '--deterministic', '--no-cache'],
    ...['--quiet', '--out', out],
  ]);
  expect(r.code, r.stderr).toBe(0);
  return Object.fromEntries(FILES.map((f) => [f, sha(join(out, f))]));
}

describe('deterministic crawl logs stay byte-identical', () => {
  it('for every code path of the engine, the logs hash as the fixture says', { timeout: scaled(180_000) }, async () => {
    const web = smallWebWithoutWaits({ documentNames: 0, documentBodies: 0 });
    const got: Record<string, Record<string, string>> = {};
    for (const s of STRATEGIES) got[s] = await crawl(s, web);
    if (process.env.GOLDEN_UPDATE) writeFileSync(FIXTURE, `${JSON.stringify(got, null, 2)}\n`);
    const want = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, Record<string, string>>;
    for (const s of STRATEGIES) for (const f of FILES) expect(got[s][f], `${s} ${f}`).toBe(want[s][f]);
  });
});
