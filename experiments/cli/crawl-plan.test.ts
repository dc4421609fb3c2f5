import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../crawler/settings.ts';
import { runCliInProcess } from '../../test/cli-inprocess.ts';
import { planCrawl } from './crawl-plan.ts';

describe('planCrawl', () => {
  it('a strategy that needs models crawls distributed on a generated web (its descriptor says so, not a list of names)', async () => {
    // refused once, after 19 s of training: the command passed models for future and adaptive only
    const plan = await planCrawl({ web: 'data/webs/small.json', strategy: 'adaptive-rescue', processes: '2' });
    expect(plan.needs).toBe('models');
    expect(plan.distributed?.processes).toBe(2);
    expect(plan.distributed?.flags.assignment).toBe('hash');
  });

  it('reads every flag into the plan without starting anything', async () => {
    const plan = await planCrawl({
      start: ['http://a.test/'],
      'max-pages': '40',
      'timeout-ms': '900',
      'max-redirects': '2',
      'max-parse-tags': '700',
      deterministic: true,
      param: ['n=64'],
      strategy: 'best-n-first',
    });
    expect(plan.settings).toMatchObject({
      maxPages: 40,
      headersTimeoutMs: 900,
      bodyTimeoutMs: 900,
      maxRedirects: 2,
      maxParseTags: 700,
      deterministic: true,
    });
    expect(plan.module).toBeNull();
    expect(plan.strategy).toBe('best-n-first');
    expect(plan.params).toEqual({ n: 64 });
    expect(plan.distributed).toBeNull();
    expect(plan.outDir).toBe('out/crawl');
  });

  it('--help states the timeouts defaults as the settings have them (issue #68: it said 15,000 for the body)', async () => {
    const r = await runCliInProcess('experiments/cli/crawl.ts', ['--help']);
    const line = r.stdout.split('\n').find((l) => l.includes('--timeout-ms'));
    expect(line).toContain(`defaults ${DEFAULT_SETTINGS.headersTimeoutMs} and ${DEFAULT_SETTINGS.bodyTimeoutMs}`);
    expect(DEFAULT_SETTINGS.bodyTimeoutMs).toBe(30_000);
    expect(r.stdout).toMatch(/--max-redirects N/);
  });

  it("refuses a --param named as Object.prototype's members, which was dropped or crashed before", async () => {
    for (const [key, why] of [
      ['__proto__', /^--param: best-n-first: parameter "__proto__" is not one of n/],
      ['constructor', /^--param: best-n-first: parameter "constructor" is not one of n/],
    ] as const)
      await expect(
        planCrawl({ start: ['http://a.test/'], param: [`${key}=1`], strategy: 'best-n-first' }),
      ).rejects.toThrow(why);
  });
});
