import { describe, expect, it } from 'vitest';
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
      deterministic: true,
      param: ['n=64'],
      strategy: 'best-n-first',
    });
    expect(plan.settings).toMatchObject({
      maxPages: 40,
      headersTimeoutMs: 900,
      bodyTimeoutMs: 900,
      deterministic: true,
    });
    expect(plan.module).toBeNull();
    expect(plan.strategy).toBe('best-n-first');
    expect(plan.params).toEqual({ n: 64 });
    expect(plan.distributed).toBeNull();
    expect(plan.outDir).toBe('out/crawl');
  });
});
