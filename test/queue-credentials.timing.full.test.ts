/**
 * The queue's credentials and TLS (issue #89): no secret in any file or line the harness writes,
 * a wrong password said by worker and submitter alike, and rediss:// against a redis-server started
 * with a certificate made at test time. Against redis-servers of this file's own; .ci/run installs
 * redis-server and openssl, and under CI the tests fail, not skip.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { niced } from './helpers.ts';
import {
  cfg,
  freePort,
  hasRedis,
  killWorkers,
  local,
  PrivateRedis,
  rows,
  tinyWeb,
  useWeb,
  worker,
} from './queue-kit.ts';
import { scaled } from './speed.ts';

afterEach(killWorkers);

describe.runIf(hasRedis || process.env.CI)('no secret in any file or line the harness writes (issue #89)', () => {
  // every character a URL's user information cannot hold raw, and "%"
  const password = 'p@:/#?%w0rd';
  const redis = new PrivateRedis(0, ['--requirepass', password]);
  beforeAll(async () => {
    (redis as { port: number }).port = await freePort();
    await redis.start();
    useWeb(tinyWeb());
  }, scaled(60_000));
  afterAll(() => redis.kill());

  it('a wrong password: worker and submitter say the server refused it, in one line, at once', {
    timeout: scaled(60_000),
  }, async () => {
    const url = `redis://:${encodeURIComponent(`${password}x`)}@127.0.0.1:${redis.port}`;
    const worker = await runCliInProcess('experiments/cli/worker.ts', ['--queue', url]);
    const submitter = await runCliInProcess('experiments/cli/experiment.ts', ['focused', '--quick', '--queue', url]);
    for (const r of [worker, submitter]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+ refused the password$/m);
      expect(r.stderr).not.toContain('w0rd');
    }
  });

  it('a queued run whose Redis password holds @:/#?%: in no file of the results folder, no printed line', {
    timeout: scaled(120_000),
  }, async () => {
    const queue = `secret-${process.pid}`;
    const hostPart = `127.0.0.1:${redis.port}/?queue=${queue}`;
    // the submitter's URL escapes every character; the worker's leaves "@" and ":" raw (both valid)
    const escaped = `redis://:${encodeURIComponent(password)}@${hostPart}`;
    const raw = `redis://:p@:${encodeURIComponent('/#?%')}w0rd@${hostPart}`;
    const dir = mkdtempSync(join(tmpdir(), 'queue-secret-'));
    const c = cfg({ sites: ['cs.alpha-university.test'] });
    const file = join(dir, 'secret-run.json');
    writeFileSync(
      file,
      JSON.stringify({ web: c.web, seeds: [1], strategies: ['bfs'], budget: 40, every: 10, sites: c.sites }),
    );
    const log: string[] = [];
    worker(raw, log);
    const out = join(dir, 'out');
    const run = await new Promise<{ code: number | null; text: string }>((done) => {
      const p = niced(
        spawn(
          process.execPath,
          // from the sources, as the worker runs: a built submitter (CI's HARNESS_TEST_DIST) has another tree
          ['--import', 'tsx', 'experiments/cli/experiment.ts', file, '--queue', escaped, '--out', out],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        ),
      );
      let text = '';
      p.stdout!.on('data', (b: Buffer) => {
        text += b.toString();
      });
      p.stderr!.on('data', (b: Buffer) => {
        text += b.toString();
      });
      p.on('exit', (code) => done({ code, text }));
    });
    expect(run.code, run.text).toBe(0);
    while (!log.some((l) => / done /.test(l))) await new Promise((r) => setTimeout(r, 20));
    const files = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    expect(files.length).toBeGreaterThan(5);
    const leaks = (text: string): string[] =>
      [password, encodeURIComponent(password), 'w0rd', encodeURIComponent('/#?%')].filter((s) => text.includes(s));
    for (const f of files) expect(leaks(readFileSync(f, 'latin1')), f).toEqual([]);
    expect(leaks(run.text)).toEqual([]);
    expect(leaks(log.join('\n'))).toEqual([]);
    // the command is still there, its URL hidden
    expect(JSON.parse(readFileSync(join(out, 'provenance.json'), 'utf8')).command).toContain(
      `--queue redis://***@${hostPart}`,
    );
  });
});

/** A CA and a server certificate for 127.0.0.1, made with openssl in `dir`; null without openssl. */
function makeCerts(dir: string): { ca: string; cert: string; key: string } | null {
  const run = (args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  };
  try {
    run([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '1',
      '-subj',
      '/CN=harness-test-ca',
    ]);
    run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'srv.key', '-out', 'srv.csr', '-subj', '/CN=localhost']);
    writeFileSync(join(dir, 'ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    run([
      'x509',
      '-req',
      '-in',
      'srv.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'srv.pem',
      '-days',
      '1',
      '-extfile',
      'ext',
    ]);
  } catch (e) {
    console.warn(`rediss:// tests skipped: openssl made no certificate (${(e as Error).message.split('\n')[0]})`);
    return null;
  }
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'srv.pem'), key: join(dir, 'srv.key') };
}

const tlsDir = mkdtempSync(join(tmpdir(), 'queue-tls-'));
const certs = hasRedis ? makeCerts(tlsDir) : null;
/**
 * Whether this redis-server was built with TLS (Debian's is): one without it reads --tls-port as a
 * bad directive; one with it fails on the missing certificate.
 */
const redisTls = (() => {
  if (!hasRedis) return false;
  const r = spawnSync('redis-server', ['--port', '0', '--tls-port', '1', '--tls-cert-file', join(tlsDir, 'none.pem')], {
    encoding: 'utf8',
    timeout: scaled(10_000),
  });
  const said = `${r.stdout}${r.stderr}`;
  if (/Bad directive/i.test(said)) console.warn('rediss:// tests skipped: this redis-server was built without TLS');
  return !/Bad directive/i.test(said);
})();

describe.runIf((hasRedis && certs && redisTls) || process.env.CI)('rediss:// (issue #89)', () => {
  let tlsPort = 0;
  const plain = new PrivateRedis(0);
  let server: ReturnType<typeof spawn> | null = null;
  beforeAll(async () => {
    if (!certs) throw new Error('openssl made no certificate: .ci/run must install openssl');
    tlsPort = await freePort();
    server = spawn(
      'redis-server',
      [
        '--port',
        '0',
        '--tls-port',
        String(tlsPort),
        '--bind',
        '127.0.0.1',
        '--tls-cert-file',
        certs.cert,
        '--tls-key-file',
        certs.key,
        '--tls-ca-cert-file',
        certs.ca,
        '--tls-auth-clients',
        'no',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 200; i++) {
      const r = new Redis({
        host: '127.0.0.1',
        port: tlsPort,
        tls: { ca: readFileSync(certs.ca) },
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      r.on('error', () => {});
      try {
        await r.connect();
        await r.ping();
        break;
      } catch {
        await new Promise((res) => setTimeout(res, 50));
      } finally {
        r.disconnect();
      }
    }
    (plain as { port: number }).port = await freePort();
    await plain.start();
    useWeb(tinyWeb());
  }, scaled(60_000));
  afterAll(async () => {
    server?.kill('SIGKILL');
    await plain.kill();
  });

  it('a queued run over TLS with the CA named in the URL gives the local rows', {
    timeout: scaled(90_000),
  }, async () => {
    const url = `rediss://127.0.0.1:${tlsPort}/?ca=${encodeURIComponent(certs!.ca)}&queue=tls-${process.pid}`;
    worker(url, []);
    const c = cfg({ sites: ['cs.alpha-university.test'] });
    expect(await rows(c, { queue: url })).toEqual(await local(c));
  });

  it('TLS on one side only, or an untrusted certificate: one line each, at once', {
    timeout: scaled(90_000),
  }, async () => {
    const cases: [string, RegExp][] = [
      [`redis://127.0.0.1:${tlsPort}`, /speaks TLS on this port: write rediss:\/\//],
      [`rediss://127.0.0.1:${plain.port}`, /does not speak TLS on this port .*: write redis:\/\//],
      [`rediss://127.0.0.1:${tlsPort}`, /its TLS certificate is not trusted .*: give its CA as \?ca=FILE/],
      [`rediss://127.0.0.1:${tlsPort}/?ca=${tlsDir}/missing.pem`, /\?ca=.*missing\.pem: no such file/],
      [`redis://127.0.0.1:${plain.port}/?ca=x.pem`, /\?ca= is for TLS: write rediss:\/\//],
    ];
    for (const [url, line] of cases) {
      const t0 = performance.now();
      const w = await runCliInProcess('experiments/cli/worker.ts', ['--queue', url]);
      expect(w.stderr, url).toMatch(new RegExp(`^error: .*${line.source}`, 'm'));
      expect(w.stderr.trim().split('\n'), url).toHaveLength(1);
      expect(performance.now() - t0, url).toBeLessThan(scaled(15_000));
    }
  });
});
