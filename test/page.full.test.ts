/**
 * The interactive results page in a real browser: Debian's Chromium driven by playwright-core.
 * The page is written by `npm run report` from the committed quick reference outputs and a
 * replay of a hand-built 40-page site, then opened from file:// with the network off. .ci/run
 * installs chromium; without it the tests skip locally and fail under CI.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphFromLists } from '../lib/site-graph.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { layoutReplay, replayRun } from '../experiments/focused/page-replay.ts';
import { scaled } from './speed.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REF = 'results/reference/focused-quick';
const STRATEGIES = [
  'oracle',
  'bfs',
  'random',
  'docs-first',
  'docs-share',
  'url-prior',
  'immediate',
  'future',
  'adaptive',
  'adaptive-page',
];
const have = existsSync(CHROMIUM);
if (!have && process.env.CI) throw new Error(`no browser at ${CHROMIUM}: .ci/run must install Debian's chromium`);

let dir: string;
let browser: Browser;
let page: Page;
const errors: string[] = [];
const requests: string[] = [];

/** A 40-page site: a chain with shortcuts, every fifth page relevant, three communities. */
function replayFile(out: string): void {
  const lists = Array.from({ length: 40 }, (_, i) => [i + 1, i + 7, (i * 13) % 40].filter((t) => t < 40 && t !== i));
  const graph = graphFromLists(
    lists,
    0,
    lists.map((_, i) => i % 5 === 0),
  );
  const r = replayRun(
    'cs.alpha-university.test',
    1,
    graph,
    lists.map((_, i) => i % 3),
  );
  STRATEGIES.forEach((s, k) => {
    r.orders[s] = Array.from({ length: 20 + 4 * k }, (_, i) => (i * (k + 1) * 7) % 40);
  });
  writeFileSync(join(out, 'replay.json'), JSON.stringify(layoutReplay(r)));
}

const lines = (metric: string): Promise<number> => page.locator(`#chart-${metric} .mark-line path`).count();
const ready = (): Promise<unknown> =>
  page.waitForFunction(() => (globalThis as { pageReady?: boolean }).pageReady === true, null, {
    timeout: scaled(20_000),
  });

describe.skipIf(!have)('the results page in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'page-'));
    for (const f of ['config.json', 'curves.csv', 'aggregates.csv', 'summary.csv'])
      copyFileSync(join(REF, f), join(dir, f));
    replayFile(dir);
    // npm run report -- DIR, in this process (test/cli-inprocess.ts), while Chromium starts
    const [report, launched] = await Promise.all([
      runCliInProcess('experiments/cli/report.ts', [dir]),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
    ]);
    browser = launched;
    expect(report.code, report.stderr).toBe(0);
    const context = await browser.newContext({ offline: true, viewport: { width: 1200, height: 900 } });
    // anything but the file itself would be a request to a network
    await context.route(
      (url) => url.protocol !== 'file:',
      (route) => {
        requests.push(route.request().url());
        return route.abort();
      },
    );
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`file://${join(dir, 'index.html')}`);
    await ready();
  }, scaled(60_000));
  afterAll(async () => browser?.close());

  it('loads from file:// with the network off: no console error, no request, one self-contained file', () => {
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(statSync(join(dir, 'index.html')).size).toBeLessThan(3 * 1024 * 1024);
  });

  it('draws the three charts, one line per strategy', async () => {
    for (const m of ['recall', 'precision', 'harvest']) expect(await lines(m), m).toBe(STRATEGIES.length);
    expect(await page.locator('#chart-recall .mark-symbol path').count()).toBeGreaterThan(100);
    // 4 sites: the means carry their 95% bands (fewer than 3 units would draw none)
    expect(await page.locator('#chart-recall .mark-area path').count()).toBeGreaterThan(0);
  });

  it('hiding a strategy in the legend removes its line; showing it brings it back', async () => {
    await page.click('#legend button[data-strategy="bfs"]');
    await ready();
    expect(await lines('recall')).toBe(STRATEGIES.length - 1);
    await page.click('#legend button[data-strategy="bfs"]');
    await ready();
    expect(await lines('recall')).toBe(STRATEGIES.length);
  });

  it('switches between the means and every run (4 sites x 1 seed)', async () => {
    await page.check('input[name=view][value=runs]');
    await ready();
    expect(await lines('recall')).toBe(STRATEGIES.length * 4);
    await page.check('input[name=view][value=mean]');
    await ready();
    expect(await lines('recall')).toBe(STRATEGIES.length);
  });

  it('colours the claims by verdict, each linked to a chart of the page', async () => {
    const rows = await page
      .locator('#claims tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.className, tr.querySelector('a')!.getAttribute('href')]));
    // C1-C6, and C1, C3, C4 and C5 of adaptive-page, the first reading run beside adaptive
    expect(rows.length).toBe(10);
    for (const [cls, href] of rows) {
      expect(cls).toMatch(/^verdict-(PASS|FAIL|TIE|NO-DATA|INFEASIBLE)$/);
      expect(await page.locator(href!).count(), href!).toBe(1);
    }
    // the verdicts the reference's report.md gives, claim by claim
    const report = readFileSync(join(REF, 'report.md'), 'utf8');
    const want = [...report.matchAll(/^\| C\d(-page)? \|.*\*\*(PASS|FAIL|TIE|NO DATA|INFEASIBLE)\*\* \|$/gm)].map(
      (m) => `verdict-${m[2].replace(' ', '-')}`,
    );
    expect(want).toHaveLength(10);
    expect(rows.map(([c]) => c)).toEqual(want);
  });

  it('sorts the summary by a column', async () => {
    await page.click('#summary th[data-col="recall"]');
    const first = await page.locator('#summary tbody tr').first().locator('td').first().textContent();
    expect(first).toBe('bfs');
    await page.click('#summary th[data-col="recall"]');
    expect(await page.locator('#summary tbody tr').first().locator('td').first().textContent()).toBe('oracle');
  });

  it('the replay slider at N pages shows N fetched pages of each strategy (its whole crawl when shorter)', async () => {
    for (const n of [0, 7, 25]) {
      // the browser's element types are not in this project's lib: the parts used, structurally
      await page.locator('#slider').evaluate((el, v) => {
        (el as unknown as { value: string }).value = String(v);
        el.dispatchEvent(new Event('input'));
      }, n);
      type Panel = { dataset: Record<string, string> };
      const fetched = await page
        .locator('#replay .panel')
        .evaluateAll((ps) =>
          ps.map((p) => [(p as unknown as Panel).dataset.strategy, Number((p as unknown as Panel).dataset.fetched)]),
        );
      expect(fetched).toEqual(STRATEGIES.map((s, k) => [s, Math.min(n, 20 + 4 * k)]));
    }
  });
});
