/**
 * Experiment runs on a BullMQ queue (issues #40 and #50), against a redis-server of this file's
 * own (a free port; killed and restarted by one test): results exact under races, lost locks,
 * dead workers and a Redis that restarts empty; every Redis failure one line within its deadline;
 * jobs and results expire. Jobs from other code: test/queue-identity.timing.test.ts.
 * A timing file: job locks expire by the clock.
 *
 * Needs redis-server on the PATH; .ci/run installs it, and under CI the tests fail rather than skip.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanQueue, jobData, jobIdOf, runInQueue } from '../experiments/queue/queue.ts';
import { codeVersionOf, treeHash } from '../experiments/queue/code.ts';
import type { JobResult } from '../experiments/focused/rows.ts';
import { redisTarget } from '../experiments/queue/redis-connection.ts';
import { niced, programArgs } from './helpers.ts';
import {
  blockingCfg,
  childrenOf,
  cfg,
  exited,
  freePort,
  hasRedis,
  killWorkers,
  local,
  PrivateRedis,
  rows,
  starts,
  startsPerJob,
  sweepTables,
  tinyWeb,
  useWeb,
  worker,
  privateRedisFor,
} from './queue-kit.ts';
import { scaled } from './speed.ts';

afterEach(killWorkers);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    // a zombie (exited, not yet reaped by its new parent) is gone for this purpose
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe.runIf(hasRedis || process.env.CI)('experiment runs on a queue', () => {
  const { redis, fresh } = privateRedisFor('t');

  it('20 submissions of an 8-point sweep on 2 workers: no failure, the local tables every time', {
    timeout: scaled(150_000),
  }, async () => {
    const q = fresh();
    const logs: string[][] = [[], []];
    worker(q, logs[0]);
    worker(q, logs[1]);
    const sweep = { budget: [20, 22, 24, 26, 28, 30, 32, 34] };
    const want = await sweepTables(cfg({ sweep }), { workers: 0, cacheDir: null });
    for (let k = 0; k < 20; k++) {
      // a new description: new job ids, so every submission runs every job again
      const got = await sweepTables(cfg({ sweep, description: `submission ${k}` }), { queue: q });
      expect(got).toEqual(want);
    }
    expect(starts(logs)).toHaveLength(20 * 8 * 2);
    for (const l of logs) expect(l.some((x) => / start /.test(x))).toBe(true);
    // submitted again: every result is kept, nothing runs
    await sweepTables(cfg({ sweep, description: 'submission 0' }), { queue: q });
    expect(starts(logs)).toHaveLength(20 * 8 * 2);
  });

  it('a job that holds its event loop past its lock runs once (the worker renews from its own loop)', {
    timeout: scaled(60_000),
  }, async () => {
    const q = fresh();
    const logs: string[][] = [[], []];
    worker(q, logs[0], { lockMs: 1000 });
    worker(q, logs[1], { lockMs: 1000 });
    const c = blockingCfg(2500);
    expect(await rows(c, { queue: q })).toEqual(await local(c));
    expect(startsPerJob(logs)).toEqual([1]);
  });

  it('a worker SIGKILLed mid-job (10 s lock): the same results, each job run at most twice', {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    const logs: string[][] = [[], []];
    const victim = worker(q, logs[0], { lockMs: 10_000 });
    const c = blockingCfg(1000, { sites: ['cs.alpha-university.test', 'cs.beta-university.test'] });
    let killed = false;
    const watch = setInterval(() => {
      if (!killed && logs[0].some((l) => / start /.test(l))) {
        victim.kill('SIGKILL');
        killed = true;
        worker(q, logs[1], { lockMs: 10_000 });
      }
    }, 20);
    try {
      expect(await rows(c, { queue: q })).toEqual(await local(c));
      expect(killed).toBe(true);
      expect(logs[0].filter((l) => / done /.test(l))).toHaveLength(0);
      expect(Math.max(...startsPerJob(logs))).toBeLessThanOrEqual(2);
      expect(logs[1].filter((l) => / done /.test(l))).toHaveLength(2);
    } finally {
      clearInterval(watch);
    }
  });

  it("a SIGKILLed worker's job process ends within a second, though its job holds the event loop (issue #69)", {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    const logs: string[][] = [[], []];
    const victim = worker(q, logs[0], { lockMs: 5000 });
    // the first page holds the job's event loop for 8 s, where a 'disconnect' event cannot run
    const c = blockingCfg(8000, { sites: ['cs.alpha-university.test'] });
    const submitted = rows(c, { queue: q });
    while (!logs[0].some((l) => / start /.test(l))) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 2000));
    // the job's process (the others: esbuild's service processes, which tsx and the code hash start)
    const jobs = childrenOf(victim.pid!).filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pool-worker'),
    );
    expect(jobs).toHaveLength(1);
    victim.kill('SIGKILL');
    const t0 = performance.now();
    while (alive(jobs[0]) && performance.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 20));
    expect(alive(jobs[0])).toBe(false);
    expect(performance.now() - t0).toBeLessThan(1000);
    // another worker runs the job once its lock expires
    worker(q, logs[1], { lockMs: 5000 });
    expect(await submitted).toEqual(await local(c));
  });

  it('Redis with AOF killed mid-job and restarted: the results finished meanwhile are kept, the run completes (issue #69)', {
    timeout: scaled(90_000),
  }, async () => {
    const aof = new PrivateRedis(await freePort(), [
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--dir',
      mkdtempSync(join(tmpdir(), 'queue-aof-')),
    ]);
    await aof.start();
    try {
      const q = `${aof.url}?queue=aof`;
      const logs: string[][] = [[]];
      // a lock longer than the outage: the job is not taken for stalled and run again
      worker(q, logs[0], { lockMs: 30_000 });
      const c = blockingCfg(2000, { sites: ['cs.alpha-university.test', 'cs.beta-university.test'] });
      const want = await local(c);
      const said: string[] = [];
      let restarted = false;
      const watch = setInterval(() => {
        if (restarted || !starts(logs).length) return;
        restarted = true;
        // down from 0.5 s into the job (its first page holds it 2 s) for 6 s: the job finishes and
        // stores its result while Redis is away, then Redis comes back with its data
        void new Promise((r) => setTimeout(r, 500))
          .then(() => aof.kill())
          .then(() => new Promise((r) => setTimeout(r, 6000)))
          .then(() => aof.start());
      }, 20);
      try {
        expect(await rows(c, { queue: q, onQueueMessage: (l) => said.push(l) })).toEqual(want);
        expect(restarted).toBe(true);
        expect(logs[0].some((l) => / failed /.test(l))).toBe(false);
      } finally {
        clearInterval(watch);
      }
    } finally {
      await aof.kill();
    }
  });

  it('a stalled network between submitter and Redis (no reset) ends the run within --wait-redis-s (issue #69)', {
    timeout: scaled(60_000),
  }, async () => {
    // a TCP proxy to this file's Redis that, once stalled, forwards nothing and closes nothing
    let stalled = false;
    const sockets: Socket[] = [];
    const proxy = createServer((client) => {
      const server = connect(redis.port, '127.0.0.1');
      sockets.push(client, server);
      client.on('data', (b) => stalled || server.write(b));
      server.on('data', (b) => stalled || client.write(b));
      client.on('error', () => {});
      server.on('error', () => {});
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const q = `redis://127.0.0.1:${(proxy.address() as { port: number }).port}?queue=stall-${process.pid}`;
    const said: string[] = [];
    let polled = false;
    const c = cfg({ sites: ['cs.alpha-university.test'] });
    const run = rows(c, {
      queue: q,
      queueWaitS: 5,
      onQueueMessage: (l) => said.push(l),
      onQueueProgress: () => {
        polled = true;
      },
    }).then(
      () => '',
      (e: Error) => e.message,
    );
    try {
      while (!polled) await new Promise((r) => setTimeout(r, 20));
      stalled = true;
      const t0 = performance.now();
      const error = await run;
      expect(error).toMatch(/no answer from Redis at redis:\/\/127\.0\.0\.1:\d+\S* \(timed out\); gave up after 5 s/);
      expect(performance.now() - t0).toBeLessThan(scaled(20_000));
      expect(said.some((l) => /waiting for it \(5 s at most\)/.test(l))).toBe(true);
    } finally {
      for (const s of sockets) s.destroy();
      proxy.close();
    }
  });

  it('Redis killed and restarted empty: the jobs are enqueued again and the run completes', {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    const logs: string[][] = [[], []];
    worker(q, logs[0]);
    worker(q, logs[1]);
    const c = blockingCfg(1000, { sites: ['cs.alpha-university.test', 'cs.beta-university.test'] });
    const want = await local(c);
    const said: string[] = [];
    let restarted = false;
    const watch = setInterval(() => {
      if (!restarted && starts(logs).length) {
        restarted = true;
        void redis.kill().then(() => redis.start());
      }
    }, 20);
    try {
      expect(await rows(c, { queue: q, onQueueMessage: (l) => said.push(l) })).toEqual(want);
      expect(restarted).toBe(true);
      expect(said.some((l) => /gone from Redis.*enqueued again/.test(l))).toBe(true);
    } finally {
      clearInterval(watch);
    }
  });

  it('a job whose wanted mark is lost while its submitter waits is marked and enqueued again, not dropped for good', {
    timeout: scaled(60_000),
  }, async () => {
    // the path of the restart above without its timing: the job kept, its mark gone (the CI run of
    // 3eadcee failed there: a worker took the re-enqueued job before the submitter marked it again)
    const q = fresh();
    const c = cfg({ sites: ['cs.alpha-university.test'] });
    const data = jobData(c, 1, c.sites[0], false, await codeVersionOf(c), 2);
    const t = redisTarget(q);
    const r = new Redis(t.connection.port, t.connection.host);
    const marks = (): Promise<string[]> => r.keys(`crawler-harness:${t.queue}:wanted:*`);
    try {
      let got = 0;
      // no worker yet: the job waits, marked; renewals 150 s apart, so none comes to its rescue
      const run = runInQueue(q, [{ id: 0, data }], () => got++, { wantedTtlS: 600 });
      while (!(await marks()).length) await new Promise((res) => setTimeout(res, 20));
      for (const k of await marks()) await r.del(k);
      const log: string[] = [];
      worker(q, log);
      await run;
      expect(got).toBe(1);
      // dropped once as unwanted, then run
      expect(log.filter((l) => / dropped /.test(l))).toHaveLength(1);
      expect(log.filter((l) => / done /.test(l))).toHaveLength(1);
    } finally {
      r.disconnect();
    }
  });

  it('finished jobs and their results expire; --clean refuses while a worker is connected, then removes them', {
    timeout: scaled(60_000),
  }, async () => {
    const q = fresh();
    const w = worker(q, []);
    const c = cfg({ sites: ['cs.alpha-university.test'] });
    const data = jobData(c, 1, c.sites[0], false, await codeVersionOf(c), 2);
    let madeBy: JobResult['madeBy'];
    await runInQueue(q, [{ id: 0, data }], (_id, r) => {
      madeBy = r.madeBy;
    });
    // the result says which process computed it: the worker's job process, the worker (as its log
    // names it) and the code that job process loaded (provenance.json's jobs, issue #89)
    expect(madeBy?.host).toBe(hostname());
    expect(Number(readFileSync(`/proc/${madeBy!.pid}/stat`, 'utf8').split(') ')[1].split(' ')[1])).toBe(w.pid);
    expect(madeBy?.workerPid).toBe(w.pid);
    expect(madeBy?.tree).toBe(treeHash());
    const t = redisTarget(q);
    const queue = new Queue(t.queue, { connection: t.connection });
    const r = new Redis(redis.port, '127.0.0.1');
    try {
      const job = await queue.getJob(jobIdOf(data));
      expect(job?.opts.removeOnComplete).toEqual({ age: 2 * 86_400, count: 100_000 });
      expect(job?.opts.removeOnFail).toEqual({ age: 2 * 86_400 });
      const ttl = await r.ttl(`crawler-harness:${t.queue}:result:${jobIdOf(data)}`);
      expect(ttl).toBeGreaterThan(2 * 86_400 - 60);
      expect(ttl).toBeLessThanOrEqual(2 * 86_400);
      // the run ends when the job's result is stored; BullMQ marks the job completed just after
      // the processor returns, and --clean refuses a queue with an active job (seen in CI)
      for (let i = 0; i < 200 && (await queue.getJobCounts('active')).active; i++)
        await new Promise((r) => setTimeout(r, 25));
      // an idle worker would write its keys again after the clean: refused until it stops
      await expect(cleanQueue(q)).rejects.toThrow(/1 worker is connected; stop it first/);
      w.kill('SIGTERM');
      expect(await exited(w)).toBe(0);
      expect(await cleanQueue(q)).toEqual({ jobs: 1, results: 1 });
      expect(await r.keys(`*${t.queue}*`)).toEqual([]);
    } finally {
      await queue.close();
      r.disconnect();
    }
  });

  it('SIGTERM: an idle worker exits 0 at once; a busy one after its job, whose result is kept', {
    timeout: scaled(60_000),
  }, async () => {
    const q = fresh();
    const idleLog: string[] = [];
    const idle = worker(q, idleLog);
    while (!idleLog.some((l) => /waiting for jobs/.test(l))) await new Promise((r) => setTimeout(r, 20));
    const t0 = Date.now();
    idle.kill('SIGTERM');
    expect(await exited(idle)).toBe(0);
    expect(Date.now() - t0).toBeLessThan(scaled(5000));
    const log: string[] = [];
    const busy = worker(q, log);
    const c = blockingCfg(1000);
    const watch = setInterval(() => {
      if (log.some((l) => / start /.test(l))) {
        clearInterval(watch);
        busy.kill('SIGTERM');
      }
    }, 20);
    const got = rows(c, { queue: q });
    expect(await exited(busy)).toBe(0);
    expect(log.some((l) => / done /.test(l))).toBe(true);
    expect(await got).toEqual(await local(c));
  });

  it('a job cut by --grace-s or by a second signal: the worker exits 1, saying so (issue #69)', {
    timeout: scaled(90_000),
  }, async () => {
    const q = fresh();
    // the first page holds the job for 6 s; --grace-s 1 cuts it
    const c = blockingCfg(6000);
    const logs: string[][] = [[], [], []];
    const stopOn = (w: ReturnType<typeof worker>, log: string[], signals: number): void => {
      const watch = setInterval(() => {
        if (!log.some((l) => / start /.test(l))) return;
        clearInterval(watch);
        for (let i = 0; i < signals; i++) setTimeout(() => w.kill('SIGTERM'), 300 * (i + 1));
      }, 20);
    };
    const graced = worker(q, logs[0], { lockMs: 3000, extra: ['--grace-s', '1'] });
    stopOn(graced, logs[0], 1);
    const got = rows(c, { queue: q });
    expect(await exited(graced)).toBe(1);
    expect(logs[0].join('\n')).toMatch(/error: stopped before the running job finished/);
    const twice = worker(q, logs[1], { lockMs: 3000 });
    stopOn(twice, logs[1], 2);
    expect(await exited(twice)).toBe(1);
    expect(logs[1].join('\n')).toMatch(/error: stopped before the running job finished/);
    // the job runs again elsewhere, with the local rows
    worker(q, logs[2], { lockMs: 3000 });
    expect(await got).toEqual(await local(c));
  });
});

describe.runIf(hasRedis || process.env.CI)('the queue when Redis is not there or says no', () => {
  const cli = (args: string[]): Promise<{ code: number | null; err: string; ms: number }> =>
    new Promise((done) => {
      const t0 = Date.now();
      const p = niced(spawn(process.execPath, programArgs(args), { stdio: ['ignore', 'ignore', 'pipe'] }));
      let err = '';
      p.stderr!.on('data', (b: Buffer) => {
        err += b.toString();
      });
      p.on('exit', (code) => done({ code, err, ms: Date.now() - t0 }));
    });

  it('unreachable: submitter and worker exit 1 within 30 s with one line; a bad URL exits 2', {
    timeout: scaled(90_000),
  }, async () => {
    const dead = `redis://:hunter2@127.0.0.1:${await freePort()}`;
    const [sub, wrk, bad] = await Promise.all([
      cli(['experiments/cli/experiment.ts', 'focused', '--quick', '--queue', dead]),
      cli(['experiments/cli/worker.ts', '--queue', dead]),
      cli(['experiments/cli/worker.ts', '--queue', 'http://127.0.0.1:1']),
    ]);
    for (const r of [sub, wrk]) {
      expect(r.code).toBe(1);
      expect(r.ms).toBeLessThan(scaled(30_000));
      expect(r.err).toMatch(/^error: no Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+ \(connection refused\)$/m);
      expect(r.err).not.toContain('hunter2');
      expect(r.err).not.toMatch(/ioredis|at .*\.js:\d+/);
    }
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('error: --queue: "http://127.0.0.1:1" is not a redis:// (or rediss://, TLS) URL\n');
  });

  it('a Redis that evicts keys (allkeys-lru) is refused at connect, in one line with the fix (issue #69)', {
    timeout: scaled(60_000),
  }, async () => {
    const lru = new PrivateRedis(await freePort(), ['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru']);
    await lru.start();
    try {
      const [sub, wrk] = await Promise.all([
        cli(['experiments/cli/experiment.ts', 'focused', '--quick', '--queue', lru.url]),
        cli(['experiments/cli/worker.ts', '--queue', lru.url]),
      ]);
      for (const r of [sub, wrk]) {
        expect(r.code).toBe(1);
        expect(r.ms).toBeLessThan(scaled(15_000));
        expect(r.err).toMatch(
          /^error: Redis at redis:\/\/127\.0\.0\.1:\d+ evicts keys under memory pressure \(maxmemory-policy allkeys-lru\): .*set it to noeviction/m,
        );
      }
    } finally {
      await lru.kill();
    }
  });

  it('a wrong or missing password is said in one line, never printed; the recipe of docs/experiments.md works as written', {
    timeout: scaled(90_000),
  }, async () => {
    // the recipe: the line that starts redis-server, on a free port
    const doc = readFileSync('docs/experiments.md', 'utf8');
    const line = /^redis-server .*$/m.exec(doc)?.[0];
    expect(line).toMatch(/--requirepass (\S+)/);
    const password = /--requirepass (\S+)/.exec(line!)![1];
    const args = line!
      .split(/\s+/)
      .slice(1)
      .map((a) => (a === "''" ? '' : a));
    const port = await freePort();
    args[args.indexOf('--port') + 1] = String(port);
    const server = spawn('redis-server', args, { stdio: 'ignore' });
    try {
      const wrong = await cli(['experiments/cli/worker.ts', '--queue', `redis://:nope@127.0.0.1:${port}`]);
      expect(wrong.code).toBe(1);
      expect(wrong.err).toMatch(/^error: Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+ refused the password$/m);
      expect(wrong.err).not.toContain('nope');
      const none = await cli(['experiments/cli/worker.ts', '--queue', `redis://127.0.0.1:${port}`]);
      expect(none.code).toBe(1);
      expect(none.err).toMatch(/wants a password/);
      // the recipe's URL, from the doc, with the port
      const good = `redis://:${password}@127.0.0.1:${port}?queue=recipe`;
      const log: string[] = [];
      worker(good, log);
      if (!cfg().web) useWeb(tinyWeb());
      const c = cfg({ sites: ['cs.alpha-university.test'] });
      expect(await rows(c, { queue: good })).toEqual(await rows(c, { workers: 0, cacheDir: null }));
      expect(log.join('\n')).not.toContain(password);
    } finally {
      server.kill('SIGKILL');
    }
  });
});
