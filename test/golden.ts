/**
 * The engine's behaviour pinned by golden logs: deterministic crawls of small.json (seed 1, faults
 * on) by the crawl CLI must write the very crawl.jsonl, frontier.log and counters.log whose SHA-256
 * a fixture holds. The web is small.json with its 503s asking for Retry-After 0 instead of 1 s, its
 * slow pages not delayed, and retries backing off from 20 ms: the logs are timing-free in
 * deterministic mode (the hashes are the same either way). The CLI runs in this process, one crawl
 * after another (test/cli-inprocess.ts): the same script and code paths, without node, tsx and every
 * import each time. The web keeps the document names and bodies from before issue #52
 * (structure.documentNames 0, documentBodies 0): the logs pin the engine, not the generator's
 * documents. Two cases: every code path at 600 pages (test/crawler.golden.full.test.ts, the full
 * tier) and two strategies at 150 pages (test/crawler.golden.test.ts, the default tier's loop).
 * After an intended change of behaviour: GOLDEN_UPDATE=1 npx vitest run test/crawler.golden
 * rewrites both fixtures; say why in the commit.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { smallWebWithoutWaits } from './helpers.ts';

const FILES = ['crawl.jsonl', 'frontier.log', 'counters.log'];

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

async function crawl(strategy: string, web: string, pages: number): Promise<Record<string, string>> {
  const out = mkdtempSync(join(tmpdir(), `golden-${strategy}-`));
  const r = await runCliInProcess('experiments/cli/crawl.ts', [
    ...['--web', web, '--seed', '1', '--strategy', strategy],
    ...['--max-pages', String(pages), '--delay-ms', '0', '--retry-base-ms', '20', '--deterministic', '--no-cache'],
    ...['--quiet', '--out', out],
  ]);
  expect(r.code, r.stderr).toBe(0);
  return Object.fromEntries(FILES.map((f) => [f, sha(join(out, f))]));
}

/** Crawls with each strategy at `pages` and expects the logs the fixture holds (GOLDEN_UPDATE=1 rewrites it). */
export async function expectGoldenLogs(fixture: string, strategies: readonly string[], pages: number): Promise<void> {
  const web = smallWebWithoutWaits({ documentNames: 0, documentBodies: 0 });
  const got: Record<string, Record<string, string>> = {};
  for (const s of strategies) got[s] = await crawl(s, web, pages);
  if (process.env.GOLDEN_UPDATE) writeFileSync(fixture, `${JSON.stringify(got, null, 2)}\n`);
  const want = JSON.parse(readFileSync(fixture, 'utf8')) as Record<string, Record<string, string>>;
  for (const s of strategies) for (const f of FILES) expect(got[s][f], `${s} ${f}`).toBe(want[s][f]);
}
