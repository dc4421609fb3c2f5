/**
 * What a queued job runs is what was submitted (issues #40, #69): a worker whose checkout, module or
 * a file that module imports differs refuses the job; data edited in Redis after submission are not
 * run under the job's id; a module outside the worker's checkout is never imported. Against a
 * redis-server of this file's own; .ci/run installs it, and under CI the tests fail, not skip.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DelayedError, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { codeVersionOf, treeHash } from '../experiments/queue/code.ts';
import { jobData, jobIdOf, runInQueue } from '../experiments/queue/queue.ts';
import { redisTarget } from '../experiments/queue/redis-connection.ts';
import {
  blockingCfg,
  cfg,
  childrenOf,
  hasRedis,
  killWorkers,
  local,
  privateRedisFor,
  rows,
  tinyWeb,
  withQueueRedis,
  worker,
} from './queue-kit.ts';
import { connectedWorkers, WantedJobs, want } from '../experiments/queue/presence.ts';
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

  it('a stale worker beside a current one busy for five times the wait: the run waits for it (issue #89)', {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    const copy = copyCheckout();
    writeFileSync(join(copy, 'crawler/engine.ts'), `${readFileSync('crawler/engine.ts', 'utf8')}\n// edited\n`);
    const logs: string[][] = [[], []];
    // the current worker first: it takes one job, whose first page holds it for 10 s
    worker(q, logs[1]);
    while (!logs[1].some((l) => /waiting for jobs/.test(l))) await new Promise((r) => setTimeout(r, 20));
    const c = blockingCfg(10_000, { sites: ['cs.alpha-university.test', 'cs.beta-university.test'] });
    const t0 = performance.now();
    const run = rows(c, { queue: q, queueRefusedWaitS: 2 });
    while (!logs[1].some((l) => / start /.test(l))) await new Promise((r) => setTimeout(r, 20));
    // then the stale one: it refuses the other job, again and again, while the current one is busy
    worker(q, logs[0], { cwd: copy });
    expect(await run).toEqual(await local(c));
    expect(performance.now() - t0).toBeGreaterThan(10_000);
    expect(logs[0].some((l) => / start /.test(l))).toBe(false);
    // refused at every bounce, said once
    expect(logs[0].filter((l) => / refused /.test(l))).toHaveLength(1);
    expect(logs[1].filter((l) => / done /.test(l))).toHaveLength(2);
  });

  it('a poisoned run: the submitter names what each worker runs, and its jobs leave Redis with it (issue #89)', {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    const copy = copyCheckout();
    writeFileSync(join(copy, 'crawler/engine.ts'), `${readFileSync('crawler/engine.ts', 'utf8')}\n// edited\n`);
    const log: string[] = [];
    const w = worker(q, log, { cwd: copy });
    const c = cfg();
    const error = await rows(c, { queue: q, queueRefusedWaitS: 2 }).then(
      () => '',
      (e: Error) => e.message,
    );
    const code = await codeVersionOf(c);
    expect(error).toMatch(
      new RegExp(
        `^job \\d \\(seed 1, site \\S+\\): no connected worker runs its code \\(.*, tree ${code.tree}, Node \\d+\\) ` +
          `for 2 s; worker \\S+:${w.pid} runs .*, tree (?!${code.tree})[0-9a-f]{16}, Node \\d+ and refused: the job ` +
          'was submitted from other code',
      ),
    );
    // the submitter gave up: its jobs are gone from Redis at once, not bounced until --clean
    const t = redisTarget(q);
    const queue = new Queue(t.queue, { connection: t.connection });
    const r = new Redis(t.connection.port, t.connection.host);
    try {
      const counts = await queue.getJobCounts();
      expect(counts.waiting + counts.delayed + counts.active + counts.prioritized).toBe(0);
      expect(await r.keys(`crawler-harness:${t.queue}:wanted:*`)).toEqual([]);
      // a killed submitter's job (wanted for 2 s, never again): the worker drops it once that has passed
      const data = jobData(c, 1, c.sites[0], false, code);
      await want(r, t.queue, 'killed-submitter', [jobIdOf(data)], 2);
      await queue.add('run', data, { jobId: jobIdOf(data) });
      const t0 = performance.now();
      while ((await queue.getJob(jobIdOf(data))) && performance.now() - t0 < 10_000)
        await new Promise((res) => setTimeout(res, 100));
      expect(await queue.getJob(jobIdOf(data))).toBeUndefined();
      expect(performance.now() - t0).toBeLessThan(6000);
      expect(log.filter((l) => / dropped /.test(l))).toHaveLength(1);
      expect(log.filter((l) => / refused /.test(l))).toHaveLength(1);
    } finally {
      r.disconnect();
      await queue.close();
    }
  });

  it('a job a worker is refusing as its submitter leaves is removed once it is put back, not left to bounce', {
    timeout: scaled(30_000),
  }, async () => {
    const t = redisTarget(fresh());
    const queue = new Queue(t.queue, { connection: t.connection });
    const r = new Redis(t.connection.port, t.connection.host);
    const wanted = new WantedJobs(r, queue, 60);
    // a worker that holds each job 500 ms, then puts it back as a refusal does
    let taken!: () => void;
    const took = new Promise<void>((res) => {
      taken = res;
    });
    const w = new Worker(
      t.queue,
      async (job, token) => {
        taken();
        await new Promise((res) => setTimeout(res, 500));
        await job.moveToDelayed(Date.now() + 60_000, token);
        throw new DelayedError();
      },
      { connection: t.connection },
    );
    try {
      await wanted.renew(['j1']);
      await queue.add('run', {}, { jobId: 'j1' });
      await took;
      await wanted.leave(['j1']);
      expect(await queue.getJob('j1')).toBeUndefined();
    } finally {
      await w.close();
      r.disconnect();
      await queue.close();
    }
  });

  for (const how of ['its job process killed', 'its job process re-forked for a bigger heap'] as const)
    it(`a worker whose checkout changes while it runs computes nothing, ${how} (issue #89)`, {
      timeout: scaled(90_000),
    }, async () => {
      const q = fresh();
      const copy = copyCheckout();
      const log: string[] = [];
      const w = worker(q, log, { cwd: copy });
      // a first run: the worker forks its job process, which loads the code
      const c = cfg({ sites: ['cs.alpha-university.test'] });
      expect(await rows(c, { queue: q })).toEqual(await local(c));
      // the checkout changes under it, as a git pull would
      const file = join(copy, 'crawler/strategy.ts');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n// pulled\n`);
      // the idle job process dies (as the OOM killer would), or the next web needs a bigger heap
      if (how === 'its job process killed') for (const pid of childrenOf(w.pid!)) process.kill(pid, 'SIGKILL');
      const next =
        how === 'its job process killed'
          ? cfg({ sites: ['cs.alpha-university.test'], seeds: [2] })
          : cfg({ sites: ['cs.alpha-university.test'], web: tinyWeb(3000) });
      // an unchanged submitter sends the next run
      const error = await rows(next, { queue: q, queueRefusedWaitS: 3 }).then(
        () => '',
        (e: Error) => e.message,
      );
      expect(error).toMatch(
        new RegExp(
          `no connected worker runs its code .*; worker \\S+:${w.pid} runs .* and refused: this worker's ` +
            'checkout changed since it started \\(then .*, tree ' +
            '[0-9a-f]{16}; now .*, tree [0-9a-f]{16}\\): restart the worker',
        ),
      );
      expect(error).not.toContain('\n');
      // nothing computed, nothing stored: the first run's one result only
      expect(log.filter((l) => / start /.test(l))).toHaveLength(1);
      await withQueueRedis(q, async (r, queue) =>
        expect(await r.keys(`crawler-harness:${queue}:result:*`)).toHaveLength(1),
      );
    });

  it('--restart-on-change: the worker whose checkout changed starts again on the new code, and says so', {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    const copy = copyCheckout();
    const log: string[] = [];
    const supervisor = worker(q, log, { cwd: copy, extra: ['--restart-on-change'] });
    while (!log.some((l) => /waiting for jobs/.test(l))) await new Promise((r) => setTimeout(r, 20));
    const first = Number(/worker (\d+): waiting/.exec(log.join('\n'))![1]);
    expect(first).not.toBe(supervisor.pid);
    const file = join(copy, 'crawler/strategy.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n// pulled\n`);
    // a job from this (unchanged) checkout: the worker puts it back, ends, and starts again
    const c = cfg({ sites: ['cs.alpha-university.test'] });
    const error = await rows(c, { queue: q, queueRefusedWaitS: 3 }).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(log.some((l) => /the checkout changed; starting the worker again on the new code/.test(l))).toBe(true);
    await withQueueRedis(q, async (r, queue) => {
      const now = await connectedWorkers(r, queue);
      expect(now).toHaveLength(1);
      // the new worker: another process, on the new code, which is not this checkout's
      expect(now[0].id).not.toMatch(new RegExp(`:${first}$`));
      expect(now[0].changed).toBe(false);
      expect(now[0].tree).not.toBe(treeHash());
      expect(error).toMatch(new RegExp(`worker ${now[0].id} runs .*, tree ${now[0].tree}`));
    });
  });

  it('a strategy module edited (on both sides) after a job process imported it: a fresh process runs it (issue #89)', {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    // a module under .cache/ (outside the tree's hash), at the same path in both checkouts
    const rel = `.cache/queue-test-modules/order-${process.pid}.ts`;
    const copy = copyCheckout();
    const write = (order: string): void => {
      for (const root of ['.', copy]) {
        mkdirSync(join(root, dirname(rel)), { recursive: true });
        writeFileSync(
          join(root, rel),
          `let seq = 0;\nexport default () => ({ name: 'order', seedScore: () => 1, ` +
            `onPage: (_p: unknown, links: readonly unknown[]) => ({ scores: links.map(() => ${order}) }) });\n`,
        );
      }
    };
    try {
      const log: string[] = [];
      worker(q, log, { cwd: copy });
      const c = cfg({
        strategies: ['order'],
        strategyParams: { order: { module: rel } },
        sites: ['cs.alpha-university.test'],
      });
      // the local references each in a process of their own (this one would keep the first version too)
      const fresh1 = (): Promise<string> => rows(c, { workers: 1, cacheDir: null });
      write('-seq++');
      const first = await fresh1();
      expect(await rows(c, { queue: q })).toEqual(first);
      // the lab edits the module on the submitter and the worker alike: the same hashes on both
      // sides, but the job process holds the first version in its module cache
      write('seq++');
      const second = await fresh1();
      expect(second).not.toEqual(first);
      expect(await rows(c, { queue: q })).toEqual(second);
      expect(log.filter((l) => / start /.test(l))).toHaveLength(2);
    } finally {
      rmSync(dirname(rel), { recursive: true, force: true });
    }
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
