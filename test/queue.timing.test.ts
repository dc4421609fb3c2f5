/**
 * Experiment runs on a BullMQ queue (issue #40): a sweep run through the queue by two worker
 * processes gives byte-identical tables to the local run; a worker SIGKILLed mid-job loses
 * nothing (its job runs again on the other once its lock expires); submitting again runs nothing
 * twice. A timing file: job locks expire by the clock.
 *
 * Needs a redis-server (REDIS_URL, default redis://127.0.0.1:6379); .ci/run starts one, and under
 * CI the test fails rather than skips without it. Each test uses a queue of its own (?queue=).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ExperimentConfig, loadExperiment } from '../experiments/focused/config.ts';
import { runSweep, writeSweepOutputs } from '../experiments/sweep/sweep.ts';
import { REDIS_URL, redisUp } from './helpers.ts';

function cfg(): ExperimentConfig {
  const base = loadExperiment('focused', { quick: true });
  return {
    ...base,
    name: 'queue-test',
    strategies: ['bfs', 'immediate'],
    budget: 100,
    every: 25,
    sites: ['cs.alpha-university.test', 'cs.beta-university.test'],
    sweep: { 'web.structure.conventions': [0, 1], 'web.structure.gapMin': [1] },
  };
}

const workers: ChildProcess[] = [];
/** A worker process as npm run worker starts it; `log` collects its lines. */
function worker(url: string, log: string[]): ChildProcess {
  const w = spawn(
    process.execPath,
    ['--import', 'tsx', 'experiments/cli/worker.ts', '--queue', url, '--no-cache', '--lock-ms', '5000'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  w.stderr!.on('data', (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean)));
  workers.push(w);
  return w;
}
afterEach(() => {
  for (const w of workers.splice(0)) w.kill('SIGKILL');
});

async function tables(dir: string, run: Parameters<typeof runSweep>[2]): Promise<Record<string, string>> {
  const data = await runSweep(cfg(), dir, run);
  await writeSweepOutputs(data, dir);
  return Object.fromEntries(['sweep.csv', 'phase.csv'].map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

describe('experiment runs on a queue', () => {
  let up = false;
  let local: Record<string, string>;
  beforeAll(async () => {
    up = await redisUp();
    if (!up && process.env.CI) throw new Error(`no redis-server at ${REDIS_URL}: .ci/run must install and start it`);
    if (up) local = await tables(mkdtempSync(join(tmpdir(), 'queue-local-')), { workers: 0, cacheDir: null });
  }, 120_000);

  it('two workers give the local tables byte for byte; a second submission runs nothing again', {
    timeout: 120_000,
  }, async (ctx) => {
    if (!up) return ctx.skip();
    const url = `${REDIS_URL}?queue=test-same-${process.pid}-${Date.now()}`;
    const logs: string[][] = [[], []];
    worker(url, logs[0]);
    worker(url, logs[1]);
    const got = await tables(mkdtempSync(join(tmpdir(), 'queue-a-')), { queue: url });
    expect(got).toEqual(local);
    const started = (): number => logs.flat().filter((l) => / start /.test(l)).length;
    // four jobs (a job whose worker blocks past its lock may run twice: the same result)
    const first = started();
    expect(first).toBeGreaterThanOrEqual(4);
    // both workers took jobs
    for (const l of logs) expect(l.some((x) => / start /.test(x))).toBe(true);
    expect(await tables(mkdtempSync(join(tmpdir(), 'queue-b-')), { queue: url })).toEqual(local);
    expect(started()).toBe(first);
  });

  it('a worker SIGKILLed mid-job loses nothing: the job runs again on the other, the tables are the same', {
    timeout: 120_000,
  }, async (ctx) => {
    if (!up) return ctx.skip();
    const url = `${REDIS_URL}?queue=test-kill-${process.pid}-${Date.now()}`;
    const logs: string[][] = [[], []];
    const victim = worker(url, logs[0]);
    let killed = false;
    const watch = setInterval(() => {
      if (!killed && logs[0].some((l) => / start /.test(l))) {
        victim.kill('SIGKILL');
        killed = true;
        // the survivor starts once the victim is gone, so the killed job must come back to it
        worker(url, logs[1]);
      }
    }, 20);
    try {
      const got = await tables(mkdtempSync(join(tmpdir(), 'queue-k-')), { queue: url });
      expect(killed).toBe(true);
      expect(got).toEqual(local);
      expect(logs[0].filter((l) => / done /.test(l))).toHaveLength(0);
      expect(logs[1].filter((l) => / done /.test(l)).length).toBeGreaterThanOrEqual(4);
    } finally {
      clearInterval(watch);
    }
  });
});
