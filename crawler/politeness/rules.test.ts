/**
 * Every registered politeness rule against the contract (./rule.ts), as scikit-learn's
 * check_estimator runs every estimator: its settings are crawl settings with a default and a help
 * line, and its gate, at its strictest, never keeps what a released ticket took and never leaves a
 * request waiting once halted. A leak or a hang here is a crawl that stalls.
 */
import { describe, expect, it } from 'vitest';
import { CrawlSettingsSchema, DEFAULT_SETTINGS } from '../settings.ts';
import { RULES } from './index.ts';
import type { Gate, PolitenessRule, RuleContext } from './rule.ts';

/** Every host on one address: the strictest a rule that counts by address can be. */
const ONE_ADDRESS: RuleContext = { addressOf: async () => '127.0.0.1' };

/** Resolves to 'waiting' if the promise has not settled after a few turns of the event loop. */
const settled = <T>(p: Promise<T>): Promise<T | 'waiting'> =>
  Promise.race([p, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 20))]);

const strictGate = (rule: PolitenessRule): Gate => {
  const gate = rule.create({ ...DEFAULT_SETTINGS, ...rule.strictest } as never, ONE_ADDRESS);
  expect(gate, `${rule.name}: its strictest settings turn it on`).not.toBeNull();
  return gate!;
};

describe.each(RULES.map((r) => [r.name, r] as const))('politeness rule %s', (_, rule) => {
  it('declares its settings as crawl settings, each with a default and a help line', () => {
    const props = CrawlSettingsSchema.properties as Record<string, { default?: unknown; description?: string }>;
    for (const [k, field] of Object.entries(rule.settings)) {
      expect(props[k], k).toBe(field);
      expect(DEFAULT_SETTINGS[k as keyof typeof DEFAULT_SETTINGS], k).toEqual(field.default);
      expect(field.description, k).toMatch(/\w{3}/);
    }
  });

  it('frees what a released ticket took: a thousand requests in turn on two hosts never wait', async () => {
    const gate = strictGate(rule);
    for (let i = 0; i < 1000; i++) {
      const t = await settled(gate.acquire({ host: i % 2 ? 'a.test' : 'b.test', url: `http://a.test/${i}` }));
      expect(t, `request ${i}`).not.toBe('waiting');
      if (t === 'waiting' || t === null) break;
      t.release(i % 3 ? { status: 200, latencyMs: 1, headersAt: 0 } : null);
    }
  });

  it('halted, it answers the requests waiting and every new one with null', async () => {
    const gate = strictGate(rule);
    const asked = Array.from({ length: 8 }, (_, i) => gate.acquire({ host: `h${i % 3}.test`, url: `http://h/${i}` }));
    // let the first ones through (a strict gate keeps the others waiting), then stop
    await settled(Promise.all(asked));
    gate.halt();
    const answers = await Promise.all(asked.map(settled));
    expect(answers).not.toContain('waiting');
    expect(await settled(gate.acquire({ host: 'a.test', url: 'http://a.test/' }))).toBeNull();
  });
});
