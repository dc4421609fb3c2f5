import { describe, expect, it } from 'vitest';
import { StrategyError } from './strategy.ts';

describe('built-ins found beside their code (crawler/registry.ts)', () => {
  it("a folder's index finds every descriptor its modules export, once, in rank order", async () => {
    const { FOUND } = await import('../test/fixtures/registry/ok/index.ts');
    // re-exports count once; look-alikes, plain values, the index and test modules are not read
    expect(FOUND.map((d: { name: string }) => d.name)).toEqual(['early', 'middle', 'late', 'unranked']);
  });

  it('two built-ins of one name are refused', async () => {
    const { find } = await import('../test/fixtures/registry/twice/index.ts');
    await expect(find()).rejects.toThrow(StrategyError);
    await expect(find()).rejects.toThrow('two built-in strategies are named "same"');
  });

  it('the shipped built-ins keep the house order', async () => {
    const { CORE_STRATEGIES } = await import('./index.ts');
    const { FOCUSED_STRATEGIES } = await import('./focused/index.ts');
    expect([...CORE_STRATEGIES, ...FOCUSED_STRATEGIES].map((d) => d.name)).toEqual([
      'bfs',
      'random',
      'opic',
      'docs-first',
      'docs-share',
      'url-prior',
      'best-first',
      'best-n-first',
      'shark-search',
      'classifier',
      'infospiders',
      'immediate',
      'future',
      'adaptive',
      'adaptive-page',
      'adaptive-rescue',
    ]);
  });
});
