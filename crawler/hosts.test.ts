/**
 * Per-host politeness, unit by unit: slots, the FIFO of waiters, the back-off ladder on server
 * errors, AutoThrottle's delay and halt(). Time is read from nextAt, not measured, so these tests
 * do not depend on the machine's speed (the measured gaps are test/crawler.politeness.timing.test.ts's).
 */
import { describe, expect, it } from 'vitest';
import { HostState, type PolitenessSettings } from './hosts.ts';

const S: PolitenessSettings = {
  perHostConcurrency: 2,
  delayMs: 0,
  autoThrottle: false,
  autoThrottleTarget: 1,
  autoThrottleMaxDelayMs: 60_000,
  retryBaseMs: 100,
  hostBackoffMaxMs: 1_000,
};
const ok = (status = 200, latencyMs = 10): { status: number; latencyMs: number; headersAt: number } => ({
  status,
  latencyMs,
  headersAt: performance.now(),
});

describe('HostState', () => {
  it('grants perHostConcurrency slots without a gap, then serves waiters first come first served', async () => {
    const h = new HostState('a.test', S);
    const a = await h.acquire();
    const b = await h.acquire();
    expect(h.inFlight).toBe(2);
    const order: string[] = [];
    const c = h.acquire().then(() => order.push('c'));
    const d = h.acquire().then(() => order.push('d'));
    await Promise.resolve();
    expect(order).toEqual([]);
    h.release(a!, ok());
    h.release(b!, ok());
    await Promise.all([c, d]);
    expect(order).toEqual(['c', 'd']);
    expect(h.inFlight).toBe(2);
  });

  it('allows one request at a time while a gap applies', async () => {
    const h = new HostState('a.test', { ...S, delayMs: 50 });
    await h.acquire();
    expect(h.ready(h.nextAt + 1)).toBe(false); // the slot, not the gap, holds it now
  });

  it('holds the host back retryBase x 2^(errors in a row - 1), capped, and a success ends the streak', async () => {
    const h = new HostState('a.test', S);
    let backoffs = 0;
    const counted = new HostState('b.test', S, () => backoffs++);
    const holds: number[] = [];
    for (let i = 0; i < 6; i++) {
      const w = await counted.acquire();
      counted.nextAt = 0; // take the slot without waiting out the previous hold
      const before = performance.now();
      counted.release(w!, ok(503));
      holds.push(counted.nextAt - before);
      counted.nextAt = 0;
    }
    expect(backoffs).toBe(6);
    const want = [100, 200, 400, 800, 1000, 1000];
    holds.forEach((x, i) => expect(x, `error ${i + 1}`).toBeGreaterThanOrEqual(want[i] - 5));
    holds.forEach((x, i) => expect(x, `error ${i + 1}`).toBeLessThanOrEqual(want[i] + 5));
    const w = await counted.acquire();
    counted.release(w!, ok(200));
    expect(counted.errorStreak).toBe(0);
    // a 503 with Retry-After is the server's own wait (backoff()), not a step of the ladder
    const w2 = await h.acquire();
    h.release(w2!, { ...ok(503), retryAfterMs: 0 });
    expect(h.errorStreak).toBe(0);
  });

  it('AutoThrottle: the delay moves toward latency / target, never below the configured delay, and a non-200 never shortens it', async () => {
    const h = new HostState('a.test', { ...S, autoThrottle: true, delayMs: 10, autoThrottleTarget: 2 });
    const w = await h.acquire();
    h.release(w!, ok(200, 400)); // target 200: max(200, (10 + 200) / 2)
    expect(h.delayMs).toBe(200);
    h.nextAt = 0;
    const w2 = await h.acquire();
    h.release(w2!, ok(404, 20)); // target 10 would shorten it: a 404 may not
    expect(h.delayMs).toBe(200);
    h.nextAt = 0;
    const w3 = await h.acquire();
    h.release(w3!, ok(200, 0)); // target 0: halves toward it, floor at delayMs
    expect(h.delayMs).toBe(100);
  });

  it('halt() refuses every waiter and every later request', async () => {
    const h = new HostState('a.test', { ...S, perHostConcurrency: 1 });
    await h.acquire();
    const waiting = h.acquire();
    h.halt();
    expect(await waiting).toBeNull();
    expect(await h.acquire()).toBeNull();
  });
});
