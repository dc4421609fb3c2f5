/**
 * vitest globalSetup: the tests that need a tool the machine lacks skip themselves (the results
 * page needs Chromium, the distributed and queue tests a redis-server); at the end of the run one
 * line says which were skipped and how to install what is missing, so a newcomer sees it.
 * (Under CI those tests fail instead: .ci/run installs both.)
 */
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function redisUp(): Promise<boolean> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(REDIS_URL);
    } catch {
      resolve(false);
      return;
    }
    const s = connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379) });
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(500, () => done(false));
    s.on('connect', () => done(true));
    s.on('error', () => done(false));
  });
}

export default async function setup(): Promise<() => void> {
  const missing: string[] = [];
  const packages: string[] = [];
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    missing.push(`the results-page test (no ${chromium})`);
    packages.push('chromium');
  }
  if (!(await redisUp())) {
    missing.push(`the Redis coordinator and job-queue tests (no redis-server at ${REDIS_URL})`);
    packages.push('redis-server');
  }
  return () => {
    if (missing.length)
      process.stdout.write(
        `\nskipped on this machine: ${missing.join('; ')}. Install with: apt-get install -y ` +
          `${packages.join(' ')} (and start redis-server; .ci/run shows how)\n`,
      );
  };
}
