/**
 * The scheduler with fake hooks (no network): deterministic steps take the best URLs up to the
 * concurrency and per-host limits and hand outcomes on in the order taken; the budget counts only
 * URLs that made a request; a Best-N-First batch holds new links until it is done; the concurrent
 * mode never has more than `concurrency` tasks in flight.
 */
import { describe, expect, it } from 'vitest';
import { Frontier, type QueueEntry } from './frontier.ts';
import { HostState } from './hosts.ts';
import type { Outcome } from './outcomes.ts';
import { Scheduler, type SchedulerHooks } from './scheduler.ts';
import { DEFAULT_SETTINGS, type CrawlSettings } from './settings.ts';

let seq = 0;
const entry = (host: string, score: number): QueueEntry => ({
  url: `http://${host}/p${seq}`,
  host,
  score,
  depth: 1,
  parent: -1,
  redirects: 0,
  seq: seq++,
});

interface Trace {
  taken: string[];
  handled: string[];
  steps: number[];
  maxInFlight: number;
}

function setup(
  over: Partial<CrawlSettings>,
  opts: { batch?: number; made?: (e: QueueEntry) => boolean; onHandle?: (e: QueueEntry, s: Scheduler) => void } = {},
): { s: Scheduler; f: Frontier; trace: Trace } {
  const settings = { ...DEFAULT_SETTINGS, delayMs: 0, autoThrottle: false, ...over } as CrawlSettings;
  const f = new Frontier();
  const hosts = new Map<string, HostState>();
  const trace: Trace = { taken: [], handled: [], steps: [], maxInFlight: 0 };
  let inFlight = 0;
  let stepSize = 0;
  let s: Scheduler;
  const hooks: SchedulerHooks = {
    host: (name) => {
      let h = hosts.get(name);
      if (!h) {
        h = new HostState(name, settings);
        h.robots = { allowAll: true } as unknown as HostState['robots'];
        hosts.set(name, h);
      }
      return h;
    },
    take: (e) => {
      trace.taken.push(e.url);
      return true;
    },
    task: async (e) => {
      inFlight++;
      stepSize++;
      trace.maxInFlight = Math.max(trace.maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1 + (e.seq % 3)));
      inFlight--;
      return { entry: e, made: opts.made ? opts.made(e) : true } as unknown as Outcome;
    },
    handle: (o) => {
      const e = (o as unknown as { entry: QueueEntry; made: boolean }).entry;
      trace.handled.push(e.url);
      opts.onHandle?.(e, s);
      return (o as unknown as { made: boolean }).made;
    },
    afterStep: () => {
      trace.steps.push(stepSize);
      stepSize = 0;
    },
    rescue: () => false,
    idle: async () => true,
  };
  s = new Scheduler(settings, f, opts.batch ?? 0, hooks);
  return { s, f, trace };
}

describe('Scheduler', () => {
  it('deterministic: steps of the best URLs within the limits, outcomes in the order taken, the budget kept', async () => {
    const { s, f, trace } = setup({ deterministic: true, concurrency: 4, perHostConcurrency: 2, maxPages: 10 });
    for (let i = 0; i < 12; i++) f.push(entry(i < 8 ? 'a.test' : 'b.test', i < 8 ? 10 - i : 20));
    await s.run();
    expect(trace.taken).toHaveLength(10);
    expect(trace.handled).toEqual(trace.taken);
    // every step at most 4 URLs, at most 2 of a host: the 4 of b.test go 2 by 2 beside a.test's best
    for (const n of trace.steps) expect(n).toBeLessThanOrEqual(4);
    expect(trace.taken.slice(0, 4).filter((u) => u.includes('b.test'))).toHaveLength(2);
    expect(s.dispatched).toBe(10);
  });

  it('a taken URL that made no request gives its budget back', async () => {
    const { s, f, trace } = setup(
      { deterministic: true, concurrency: 2, perHostConcurrency: 2, maxPages: 4 },
      { made: (e) => e.seq % 2 === 0 },
    );
    for (let i = 0; i < 10; i++) f.push(entry('a.test', 0));
    await s.run();
    // 4 requests made: the ones with an even seq among those taken
    expect(trace.taken.filter((u) => Number(u.split('/p')[1]) % 2 === 0)).toHaveLength(4);
    expect(trace.taken.length).toBeGreaterThan(4);
    expect(s.dispatched).toBe(4);
  });

  it('Best-N-First: links found during a batch wait for the next batch', async () => {
    const late: string[] = [];
    const { s, f, trace } = setup(
      { deterministic: true, concurrency: 2, perHostConcurrency: 2, maxPages: 8 },
      {
        batch: 4,
        // every handled page yields a better link: it must not jump into the batch under way
        onHandle: (e, sch) => {
          if (e.score < 100) {
            const n = entry('a.test', 100);
            late.push(n.url);
            sch.queue(n);
          }
        },
      },
    );
    for (let i = 0; i < 4; i++) f.push(entry('a.test', 1));
    await s.run();
    expect(trace.taken.slice(0, 4).some((u) => late.includes(u))).toBe(false);
    expect(trace.taken.slice(4).every((u) => late.includes(u))).toBe(true);
  });

  it('concurrent: never more than `concurrency` in flight, every outcome handled', async () => {
    const { s, f, trace } = setup({ deterministic: false, concurrency: 3, perHostConcurrency: 8, maxPages: 30 });
    for (let i = 0; i < 40; i++) f.push(entry(`h${i % 5}.test`, i));
    await s.run();
    expect(trace.maxInFlight).toBeLessThanOrEqual(3);
    expect(trace.maxInFlight).toBeGreaterThan(1);
    expect(trace.handled).toHaveLength(30);
    expect(new Set(trace.handled)).toEqual(new Set(trace.taken));
  });
});
