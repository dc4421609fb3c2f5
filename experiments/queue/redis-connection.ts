/**
 * The Redis behind the job queue (experiments/queue/queue.ts), as the submitter and the workers
 * reach it: the URL read once (a password never printed), a first contact that answers within a
 * deadline, and every Redis failure said in one line of what it means (unreachable, wrong
 * password, protected mode) instead of ioredis's multi-line dumps.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Redis } from 'ioredis';
import { sleep } from '../../lib/time.ts';
import { QueueUrlError } from '../../lib/errors.ts';
import { redactArg, redactSecrets } from '../../lib/secrets.ts';

export const QUEUE_NAME = 'crawler-harness-runs';

/** How long a first contact, or a lost connection, may take before the command gives up (ms; --wait-redis-s). */
export const REDIS_TIMEOUT_MS = 30_000;

/** --wait-redis-s N as milliseconds: 0 waits for ever (an unattended lab), else N seconds. */
export const waitRedisMs = (seconds: number | undefined): number =>
  seconds === undefined ? REDIS_TIMEOUT_MS : seconds === 0 ? Number.POSITIVE_INFINITY : seconds * 1000;

/**
 * `call`, tried again with back-off (0.2 s doubling to 5 s) while Redis does not answer, until
 * `deadline` (epoch ms; Infinity: for ever); credentials and protected mode are not retried. For
 * every call a result depends on: a result written while Redis restarts is written once it is back.
 */
export async function retrying<T>(call: () => Promise<T>, deadline: number): Promise<T> {
  for (let wait = 200; ; wait = Math.min(2 * wait, 5000)) {
    try {
      return await within(call(), 10_000, () => 'timed out');
    } catch (e) {
      if (fatalRedisError(e) || Date.now() + wait > deadline) throw e;
      await sleep(wait);
    }
  }
}

/** A --queue URL that is not one (exit 2 at the command line; lib/errors.ts). */
export { QueueUrlError } from '../../lib/errors.ts';

/** ioredis options: BullMQ opens its own connections from these. */
export interface Connection {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
  /** rediss://: TLS, the server's certificate checked against Node's CAs or the URL's ?ca= file. */
  tls?: { ca?: Buffer; servername?: string };
  connectTimeout: number;
  retryStrategy: (times: number) => number;
}

export interface RedisTarget {
  connection: Connection;
  /** The queue's name: the URL's ?queue= parameter (several harnesses, or tests, on one Redis), else QUEUE_NAME. */
  queue: string;
  /** The URL as it may be printed: the password replaced by ***. */
  shown: string;
}

/**
 * A URL with its user and password replaced (lib/secrets.ts, whatever they hold): for every message
 * that names the Redis. By pattern, not through new URL(): the URL is shown as it was written.
 */
export function redactUrl(url: string): string {
  return redactArg(url);
}

/** A Redis URL, redis://[USER:PASSWORD@]HOST:PORT[/DB][?queue=NAME], read once; a QueueUrlError (one line) for a bad one. */
export function redisTarget(url: string): RedisTarget {
  const shown = redactUrl(url);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new QueueUrlError(`--queue: "${shown}" is not a URL (redis://HOST:PORT)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new QueueUrlError(`--queue: "${shown}" is not a redis:// (or rediss://, TLS) URL`);
  const tls = u.protocol === 'rediss:' ? tlsOptions(u, shown) : undefined;
  if (!tls && u.searchParams.has('ca'))
    throw new QueueUrlError(`--queue: "${shown}": ?ca= is for TLS: write rediss://`);
  const port = Number(u.port || 6379);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new QueueUrlError(`--queue: "${shown}": bad port`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  if (db !== undefined && (!Number.isInteger(db) || db < 0 || db > 15))
    throw new QueueUrlError(`--queue: "${shown}": the database must be a whole number from 0 to 15`);
  const queue = u.searchParams.get('queue') || QUEUE_NAME;
  if (!/^[\w.-]{1,100}$/.test(queue))
    throw new QueueUrlError(`--queue: "${shown}": ?queue= takes letters, digits, ".", "-" and "_" (at most 100)`);
  return {
    connection: {
      host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port,
      ...(u.username ? { username: decoded(u.username, shown, 'user') } : {}),
      ...(u.password ? { password: decoded(u.password, shown, 'password') } : {}),
      ...(db !== undefined ? { db } : {}),
      ...(tls ? { tls } : {}),
      connectTimeout: 10_000,
      // reconnect at most every 2 s; whether to go on waiting is the commands' decision (their deadline)
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
    },
    queue,
    shown,
  };
}

/** rediss:// options: the CA file the URL's ?ca= names (else Node's CAs), the host name checked against the certificate. */
function tlsOptions(u: URL, shown: string): NonNullable<Connection['tls']> {
  const ca = u.searchParams.get('ca');
  let caText: Buffer | undefined;
  if (ca !== null) {
    try {
      caText = readFileSync(ca);
    } catch (e) {
      throw new QueueUrlError(
        `--queue: "${shown}": ?ca=${ca}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      );
    }
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  // an IP address is checked against the certificate's IP names; SNI takes host names only
  return { ...(caText ? { ca: caText } : {}), ...(isIP(host) ? {} : { servername: host }) };
}

/** A URL's user or password, percent-decoded; a "%" not followed by two hex digits is refused in one line. */
function decoded(part: string, shown: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new QueueUrlError(
      `--queue: "${shown}": the ${what} has a "%" not followed by two hex digits (write "%" as %25)`,
    );
  }
}

/** What a Redis error means, in one line, without the password. */
export function redisProblem(e: unknown, shown: string): string {
  const err = e as NodeJS.ErrnoException & { message?: string };
  const m = String(err?.message ?? e);
  if (/WRONGPASS|invalid password|invalid username-password/i.test(m)) return `Redis at ${shown} refused the password`;
  if (/NOAUTH/i.test(m)) return `Redis at ${shown} wants a password: redis://:PASSWORD@HOST:PORT`;
  if (/DENIED.*protected mode/i.test(m))
    return `Redis at ${shown} is in protected mode: give it a password (--requirepass) and put it in the URL (docs/experiments.md)`;
  if (m === SPEAKS_TLS) return `Redis at ${shown} speaks TLS on this port: write rediss:// (and ?ca=FILE for its CA)`;
  if (NO_TLS.test(m) || NO_TLS.test(String(err?.code)))
    return `Redis at ${shown} does not speak TLS on this port (${m.split('\n')[0]}): write redis://`;
  if (CERT.test(m) || CERT.test(String(err?.code)))
    return `Redis at ${shown}: its TLS certificate is not trusted (${m.split('\n')[0]}): give its CA as ?ca=FILE`;
  const code = err?.code ?? /\b(E[A-Z]+)\b/.exec(m)?.[1];
  if (code === 'ECONNREFUSED') return `no Redis at ${shown} (connection refused)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `no Redis at ${shown} (unknown host)`;
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(m)) return `no answer from Redis at ${shown} (timed out)`;
  return `Redis at ${shown}: ${redactSecrets(m.split('\n')[0])}`;
}

/** A TLS handshake with a server that does not speak TLS. */
const NO_TLS = /wrong version number|packet length too long|ERR_SSL_WRONG_VERSION_NUMBER|unknown protocol|EPROTO/i;
/** A certificate Node does not trust, or one for another host. */
const CERT = /certificate|UNABLE_TO_VERIFY|SELF_SIGNED|CERT_|ERR_TLS_CERT_ALTNAME_INVALID/i;
/** What firstWords found: a TLS server reached without TLS. */
const SPEAKS_TLS = 'the server speaks TLS';
/** What a rediss:// first contact found: the server answers in plain text (it takes a TLS hello for a command). */
const SPEAKS_PLAIN = 'unknown protocol: the server answers without TLS';

/** Whether a Redis error will not mend by waiting (credentials, protected mode, TLS on one side only). */
export const fatalRedisError = (e: unknown): boolean => {
  const m = `${String((e as Error)?.message ?? e)} ${String((e as NodeJS.ErrnoException)?.code ?? '')}`;
  return (
    /WRONGPASS|NOAUTH|invalid password|DENIED/i.test(m) || m.startsWith(SPEAKS_TLS) || NO_TLS.test(m) || CERT.test(m)
  );
};

/** A promise that rejects with `message` if `p` has not settled within ms (Infinity: p as it is). */
export function within<T>(p: Promise<T>, ms: number, message: () => string): Promise<T> {
  // setTimeout takes 2^31 - 1 ms at most, and reads Infinity as 1 ms
  if (!(ms < 2 ** 31)) return p;
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message())), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** What cannot work, said as is (not read as a connection problem). */
class RedisRefusal extends Error {}

/**
 * The server's eviction policy when it is not noeviction, else null. BullMQ keeps jobs, locks and
 * our results in ordinary keys: a Redis that evicts under memory pressure (allkeys-lru, ...) drops
 * them mid-run (a run once stopped with "the job was not submitted by this harness version").
 * Read from INFO, which managed Redis services that rename CONFIG still answer.
 */
async function evictionPolicy(client: Redis, ms: number): Promise<string | null> {
  const info = await within(client.info('memory'), ms, () => '\0timeout');
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  return policy && policy !== 'noeviction' ? policy : null;
}

const evictionProblem = (policy: string, shown: string): string =>
  `Redis at ${shown} evicts keys under memory pressure (maxmemory-policy ${policy}): jobs and results ` +
  'could vanish mid-run; set it to noeviction (CONFIG SET maxmemory-policy noeviction, and in redis.conf)';

/**
 * A connection of our own (results, health checks) that has answered a PING, or an Error of one
 * line within `ms`: unreachable, wrong password and protected mode each said as such.
 */
export async function connectRedis(target: RedisTarget, ms = REDIS_TIMEOUT_MS): Promise<Redis> {
  const client = new Redis({ ...target.connection, lazyConnect: true, maxRetriesPerRequest: 1 });
  let last: unknown = null;
  // ioredis emits every failed attempt; without a listener it prints each one as a stack dump
  client.on('error', (e) => {
    last = e;
  });
  // a server that refuses a connection before any command (protected mode) writes its reason and
  // closes: ioredis, with no command to answer, drops the reply and says "Connection is closed"
  client.on('connect', () =>
    (client as unknown as { stream?: NodeJS.ReadableStream }).stream?.on('data', (b: Buffer) => {
      const refused = /^-([^\r\n]+)/.exec(b.toString('latin1'));
      if (refused) last = new Error(refused[1]);
    }),
  );
  const deadline = Date.now() + ms;
  const timedOut = (): string => '\0timeout';
  // a plain Redis reads a TLS hello as an unfinished command and never answers: rediss:// to it would
  // wait out the whole deadline to say "timed out"; asked first, it says what is wrong at once
  if (target.connection.tls && !(await speaksTls(target)) && (await speaksPlain(target))) {
    client.disconnect();
    throw new Error(redisProblem(new Error(SPEAKS_PLAIN), target.shown));
  }
  try {
    await within(client.connect(), ms, timedOut);
    for (;;) {
      try {
        await within(client.ping(), Math.max(1, deadline - Date.now()), timedOut);
        const evicts = await evictionPolicy(client, Math.max(1, deadline - Date.now()));
        if (evicts) throw new RedisRefusal(evictionProblem(evicts, target.shown));
        return client;
      } catch (e) {
        // the server's own reason, read off the socket, when it refused before answering
        let cause = fatalRedisError(last) && !fatalRedisError(e) ? last : e;
        if (!fatalRedisError(cause) && resetBeforeReply(last ?? cause)) cause = (await firstWords(target)) ?? cause;
        if (cause instanceof RedisRefusal || fatalRedisError(cause) || Date.now() >= deadline) throw cause;
        last = e;
        await sleep(200);
      }
    }
  } catch (e) {
    client.disconnect();
    if (e instanceof RedisRefusal) throw new Error(e.message);
    // ioredis rejects a failed connect with "Connection is closed."; the cause came as an error event
    const timeout = (e as Error).message === timedOut();
    let cause = fatalRedisError(e) ? e : (last ?? (timeout ? new Error('timed out') : e));
    if (!fatalRedisError(cause) && resetBeforeReply(cause)) cause = (await firstWords(target)) ?? cause;
    throw new Error(redisProblem(cause, target.shown));
  }
}

/** A connection cut before the server answered (a reset can discard the reason it wrote first). */
const resetBeforeReply = (e: unknown): boolean =>
  /ECONNRESET|EPIPE|Connection is closed/i.test(String((e as Error)?.message ?? e));

/**
 * What the server writes to a connection that sends nothing, within a second: Redis in protected
 * mode writes its "-DENIED ..." on accept and closes. A client that had sent a command meanwhile
 * gets a reset that may discard the text ("read ECONNRESET": one worker said that where the
 * submitter, by the race, read the reason); a silent connection reads it. Null when the server
 * says nothing, or nothing that starts with "-".
 */
async function firstWords(target: RedisTarget): Promise<Error | null> {
  if (target.connection.tls) return null;
  const said = await silentRead(target);
  // nothing said: a TLS server waits for a handshake a plain client never sends
  return said ?? ((await speaksTls(target)) ? new Error(SPEAKS_TLS) : null);
}

/** Whether the server completes a TLS handshake (its certificate not checked: only whether it speaks TLS). */
async function speaksTls(target: RedisTarget): Promise<boolean> {
  const { connect } = await import('node:tls');
  return new Promise((resolve) => {
    const socket = connect({ host: target.connection.host, port: target.connection.port, rejectUnauthorized: false });
    const done = (yes: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(yes);
    };
    const timer = setTimeout(() => done(false), 1000);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether the server answers a plain PING (with PONG or an error such as NOAUTH) within a second. */
async function speaksPlain(target: RedisTarget): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    let text = '';
    const socket = connect({ host: target.connection.host, port: target.connection.port }, () =>
      socket.write('PING\r\n'),
    );
    const done = (yes: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(yes);
    };
    const timer = setTimeout(() => done(false), 1000);
    socket.on('data', (b: Buffer) => {
      text += b.toString('latin1');
      if (text.includes('\n')) done(/^[+-]/.test(text));
    });
    socket.on('error', () => done(false));
    socket.on('end', () => done(false));
  });
}

/** What the server writes to a connection that sends nothing, within a second (see firstWords). */
async function silentRead(target: RedisTarget): Promise<Error | null> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    let text = '';
    const socket = connect({ host: target.connection.host, port: target.connection.port });
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const line = /^-([^\r\n]+)/.exec(text)?.[1];
      resolve(line ? new Error(line) : null);
    };
    const timer = setTimeout(done, 1000);
    socket.on('data', (b: Buffer) => {
      text += b.toString('latin1');
      if (text.includes('\n')) done();
    });
    socket.on('error', done);
    socket.on('end', done);
  });
}
