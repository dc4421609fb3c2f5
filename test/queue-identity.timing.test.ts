/**
 * What a queued job runs is what was submitted (issues #40, #69): a worker whose checkout, module or
 * a file that module imports differs refuses the job; data edited in Redis after submission are not
 * run under the job's id; a module outside the worker's checkout is never imported. Against a
 * redis-server of this file's own; .ci/run installs it, and under CI the tests fail, not skip.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { codeVersionOf } from '../experiments/queue/code.ts';
import { jobData, jobIdOf, runInQueue } from '../experiments/queue/queue.ts';
import { redisTarget } from '../experiments/queue/redis.ts';
import { cfg, hasRedis, killWorkers, local, privateRedisFor, rows, worker } from './queue-kit.ts';
import { scaled } from './speed.ts';

afterEach(killWorkers);

describe.runIf(hasRedis || process.env.CI)('a queued job runs only as submitted', () => {
  const { fresh } = privateRedisFor('i');

  /** A copy of this checkout's code (and `extra` paths), node_modules linked, for a worker of its own. */
  function copyCheckout(extra: string[] = []): string {
    const copy = mkdtempSync(join(tmpdir(), 'queue-checkout-'));
    for (const f of [
      'crawler',
      'lib',
      'sim',
      'experiments',
      'bin',
      'data',
      'index.ts',
      'package.json',
      'package-lock.json',
      ...extra,
    ])
      cpSync(f, join(copy, f), { recursive: true });
    symlinkSync(resolve('node_modules'), join(copy, 'node_modules'));
    return copy;
  }

  it('a worker whose checkout differs refuses the job, and the submitter says so in one line', {
    timeout: scaled(60_000),
  }, async () => {
    const q = fresh();
    // a copy of this checkout with one comment added to the crawler
    const copy = copyCheckout();
    writeFileSync(join(copy, 'crawler/engine.ts'), `${readFileSync('crawler/engine.ts', 'utf8')}\n// edited\n`);
    const log: string[] = [];
    worker(q, log, { cwd: copy });
    const error = await rows(cfg(), { queue: q, queueRefusedWaitS: 3 }).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(error).toMatch(/^job \d .*refused: the job was submitted from other code .*tree [0-9a-f]{16}\)/);
    expect(error).not.toContain('\n');
    expect(log.some((l) => / start /.test(l))).toBe(false);
  });

  it('a worker on a stale checkout beside a current one: it puts the jobs back, the other runs them (issue #69)', {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    const copy = copyCheckout();
    writeFileSync(join(copy, 'crawler/engine.ts'), `${readFileSync('crawler/engine.ts', 'utf8')}\n// edited\n`);
    const logs: string[][] = [[], []];
    worker(q, logs[0], { cwd: copy });
    // the stale worker first, alone for a while: it refuses what it takes, and the run goes on
    while (!logs[0].some((l) => /waiting for jobs/.test(l))) await new Promise((r) => setTimeout(r, 20));
    const c = cfg();
    const run = rows(c, { queue: q, queueRefusedWaitS: 20 });
    while (!logs[0].some((l) => / refused /.test(l))) await new Promise((r) => setTimeout(r, 20));
    worker(q, logs[1]);
    expect(await run).toEqual(await local(c));
    expect(logs[0].some((l) => / start /.test(l))).toBe(false);
    expect(logs[1].filter((l) => / done /.test(l))).toHaveLength(c.sites.length);
  });

  it("a worker whose copy of a module's imported helper differs by a byte refuses the job (issue #69)", {
    timeout: scaled(60_000),
  }, async () => {
    const q = fresh();
    const dir = 'test/fixtures/queue/with-helper';
    const copy = copyCheckout([dir]);
    writeFileSync(join(copy, dir, 'helper.ts'), `${readFileSync(join(dir, 'helper.ts'), 'utf8')}// edited\n`);
    const log: string[] = [];
    worker(q, log, { cwd: copy });
    const c = cfg({
      strategies: ['with-helper'],
      strategyParams: { 'with-helper': { module: `${dir}/mod.ts` } },
      sites: ['cs.alpha-university.test'],
    });
    const error = await rows(c, { queue: q, queueRefusedWaitS: 3 }).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(error).toMatch(
      /refused: .*with-helper\/mod\.ts differs between the submitter and this worker .*a file it imports/,
    );
    expect(log.some((l) => / start /.test(l))).toBe(false);
  });

  it('a job whose data were edited in Redis after it was submitted is refused: not run under the old id', {
    timeout: scaled(60_000),
  }, async () => {
    const q = fresh();
    const c = cfg({ sites: ['cs.alpha-university.test'] });
    const data = jobData(c, 1, c.sites[0], false, await codeVersionOf(c));
    const t = redisTarget(q);
    const queue = new Queue(t.queue, { connection: t.connection });
    try {
      const run = runInQueue(q, [{ id: 0, data }], () => {}, { refusedWaitMs: 3000 }).then(
        () => '',
        (e: Error) => e.message,
      );
      let job = await queue.getJob(jobIdOf(data));
      for (let i = 0; i < 400 && !job; i++) {
        await new Promise((r) => setTimeout(r, 25));
        job = await queue.getJob(jobIdOf(data));
      }
      // the budget halved by whoever can write to the queue's Redis
      await job!.updateData({ ...data, cfg: { ...data.cfg, budget: 20 } });
      const log: string[] = [];
      worker(q, log);
      expect(await run).toMatch(/refused: the job's data do not hash to its id/);
      expect(log.some((l) => / start /.test(l))).toBe(false);
    } finally {
      await queue.close();
    }
  });

  it('a job naming a module outside the checkout is refused; the module never runs', {
    timeout: scaled(60_000),
  }, async () => {
    const q = fresh();
    const dir = mkdtempSync(join(tmpdir(), 'queue-outside-'));
    const module = join(dir, 'outside.ts');
    cpSync('test/fixtures/queue/outside.ts', module);
    const mark = join(dir, 'imported');
    const log: string[] = [];
    worker(q, log, { env: { OUTSIDE_MARK: mark } });
    const c = cfg({
      strategies: ['outside'],
      strategyParams: { outside: { module } },
      sites: ['cs.alpha-university.test'],
    });
    const error = await runInQueue(
      q,
      [{ id: 0, data: jobData(c, 1, c.sites[0], false, await codeVersionOf(c)) }],
      () => {},
      { refusedWaitMs: 3000 },
    ).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(error).toMatch(/refused: ".*outside\.ts" is outside this worker's checkout/);
    expect(existsSync(mark)).toBe(false);
  });
});
