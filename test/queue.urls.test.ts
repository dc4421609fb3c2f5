/**
 * Redis URLs of the job queue without a Redis (the queue's own runs are test/queue.timing.full.test.ts,
 * in the full tier): read once, passwords redacted, problems in words.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import {
  connectRedis,
  redactUrl,
  redisProblem,
  redisTarget,
  waitRedisMs,
  within,
} from '../experiments/queue/redis-connection.ts';
import { runCliInProcess } from './cli-inprocess.ts';

describe('queue Redis URLs', () => {
  it('URLs: read once, passwords redacted, problems in words', () => {
    expect(redactUrl('redis://:s3cret@h:1/2?queue=x')).toBe('redis://***@h:1/2?queue=x');
    expect(redactUrl('not a url //u:s3cret@h')).not.toContain('s3cret');
    const t = redisTarget('redis://u:p%40ss@h:6380/3?queue=q1');
    expect(t.connection).toMatchObject({ host: 'h', port: 6380, username: 'u', password: 'p@ss', db: 3 });
    expect(t.queue).toBe('q1');
    expect(() => redisTarget('redis://h:1/99')).toThrow(/database/);
    expect(() => redisTarget('redis://h:1?queue=a b')).toThrow(/queue=/);
    expect(redisProblem(new Error('WRONGPASS invalid username-password pair'), 'X')).toBe(
      'Redis at X refused the password',
    );
    expect(redisProblem(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'X')).toBe(
      'no Redis at X (connection refused)',
    );
    expect(redisProblem(new Error('DENIED Redis is running in protected mode because ...'), 'X')).toMatch(
      /protected mode/,
    );
  });

  it("a server that refuses before any command is said in its own words, not as 'Connection is closed'", async () => {
    /** A server that writes `reply` to each connection and closes it, as Redis does in protected mode. */
    const refusing = async (reply: string): Promise<{ url: string; close: () => void }> => {
      const server = createServer((c) => c.end(`${reply}\r\n`));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return { url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
    };
    const denied = await refusing(
      '-DENIED Redis is running in protected mode because protected mode is enabled and no password is set',
    );
    const t0 = performance.now();
    try {
      await expect(connectRedis(redisTarget(denied.url), 30_000)).rejects.toThrow(
        /^Redis at redis:\/\/127\.0\.0\.1:\d+ is in protected mode: give it a password/,
      );
      // at once, not at the end of the wait: waiting does not mend it
      expect(performance.now() - t0).toBeLessThan(10_000);
    } finally {
      denied.close();
    }
    const full = await refusing('-ERR max number of clients reached');
    try {
      await expect(connectRedis(redisTarget(full.url), 1500)).rejects.toThrow(/: ERR max number of clients reached$/);
    } finally {
      full.close();
    }
  });

  it('protected mode behind a reset: worker and submitter say it in the server\'s words, not "read ECONNRESET" (issue #89)', async () => {
    // as a remote Redis in protected mode: it writes its reason on accept and closes; a client that
    // sent a command meanwhile gets a reset, which discards the reason (one worker said
    // "read ECONNRESET"); a connection that sends nothing reads it
    const server = createServer((c) => {
      const reason = setTimeout(
        () => c.end('-DENIED Redis is running in protected mode because protected mode is enabled\r\n'),
        50,
      );
      c.once('data', () => {
        clearTimeout(reason);
        c.resetAndDestroy();
      });
      c.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const worker = await runCliInProcess('experiments/cli/worker.ts', ['--queue', url, '--wait-redis-s', '5']);
      const submitter = await runCliInProcess('experiments/cli/experiment.ts', [
        'focused',
        '--quick',
        '--queue',
        url,
        '--wait-redis-s',
        '5',
      ]);
      for (const r of [worker, submitter]) {
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          /^error: Redis at redis:\/\/127\.0\.0\.1:\d+ is in protected mode: give it a password/m,
        );
        expect(r.stderr).not.toMatch(/ECONNRESET/);
      }
    } finally {
      server.close();
    }
  });

  it('--wait-redis-s: seconds, 0 for ever; only with --queue; a deadline of for ever is no timer', async () => {
    expect(waitRedisMs(undefined)).toBe(30_000);
    expect(waitRedisMs(5)).toBe(5000);
    expect(waitRedisMs(0)).toBe(Number.POSITIVE_INFINITY);
    // setTimeout reads Infinity as 1 ms: within() must not time out at once
    expect(await within(new Promise((r) => setTimeout(() => r('late'), 30)), Number.POSITIVE_INFINITY, () => 'x')).toBe(
      'late',
    );
    const alone = await runCliInProcess('experiments/cli/experiment.ts', ['focused', '--wait-redis-s', '5']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--wait-redis-s goes with --queue/);
    const bad = await runCliInProcess('experiments/cli/worker.ts', ['--queue', 'redis://h:1', '--wait-redis-s', '-1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--wait-redis-s: "-1" must be a whole number from 0/);
  });
});
