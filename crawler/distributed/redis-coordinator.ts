/**
 * The coordinator across machines, on Redis (ioredis): a stream per bucket read through one
 * consumer group (XREADGROUP; XAUTOCLAIM takes over deliveries a dead or departed process left
 * unacknowledged), a hash of members with heartbeats, a claim table and a set of fetched URLs
 * updated by one Lua script (atomic: no URL fetched twice, a global page budget), and counters
 * of published and settled messages from which any process can tell that the crawl is quiet.
 * Keys live under crawl:<name>: so several crawls can share a server.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { ClaimResult, Coordinator, Delivery, Member, UrlMessage } from './coordinator.ts';

const GROUP = 'crawlers';

// KEYS: a bucket's stream, the settled counter; ARGV: group, message ids. XACK counts only the
// messages still pending, so a delivery acknowledged twice is counted once.
const ACK = `
local n = redis.call('XACK', KEYS[1], ARGV[1], unpack(ARGV, 2))
if n > 0 then redis.call('INCRBY', KEYS[2], n) end
return n
`;

// KEYS: done set, claims hash, pages counter, beats hash; ARGV: url, member, budget, deadMs, now
const CLAIM = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 'done' end
local c = redis.call('HGET', KEYS[2], ARGV[1])
if c == ARGV[2] then return 'taken' end
if c then
  local beat = redis.call('HGET', KEYS[4], c)
  if beat and tonumber(ARGV[5]) - tonumber(beat) <= tonumber(ARGV[4]) then return 'taken' end
end
if tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[3]) then return 'budget' end
redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 'ok'`;

type Fields = string[];

function toMsg(f: Fields): UrlMessage {
  const m: Record<string, string> = {};
  for (let i = 0; i + 1 < f.length; i += 2) m[f[i]] = f[i + 1];
  return { url: m.url, score: Number(m.score), depth: Number(m.depth) };
}

export class RedisCoordinator implements Coordinator {
  readonly redis: Redis;
  private readonly groups = new Set<string>();
  private lastError: Error | null = null;

  /** url: redis://HOST:PORT[/DB]; name: the crawl's key prefix. */
  constructor(
    private readonly url: string,
    private readonly name: string,
  ) {
    // ioredis (CommonJS) loads when a Redis coordinator is made, not with every module that names
    // the distributed crawler (a config's list of assignments, a command's --help)
    const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.redis = new RedisClient(url, { lazyConnect: false, maxRetriesPerRequest: 3, enableOfflineQueue: true });
    // connection errors surface through the commands that fail (and connect()), not as unhandled events
    this.redis.on('error', (e: Error) => {
      this.lastError = e;
    });
    this.redis.defineCommand('crawlClaim', { numberOfKeys: 4, lua: CLAIM });
    this.redis.defineCommand('crawlAck', { numberOfKeys: 2, lua: ACK });
  }

  private k(s: string): string {
    return `crawl:${this.name}:${s}`;
  }

  /** Waits for the connection; rejects with a clear message when Redis is unreachable. */
  async connect(timeoutMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.redis.ping(),
        new Promise((_, rej) => {
          timer = setTimeout(() => rej(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (e) {
      this.redis.disconnect();
      throw new Error(`cannot reach Redis at ${this.url}: ${this.lastError?.message ?? (e as Error).message}`, {
        cause: e,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  private async group(bucket: string): Promise<string> {
    const key = this.k(`q:${bucket}`);
    if (!this.groups.has(key)) {
      try {
        await this.redis.xgroup('CREATE', key, GROUP, '0', 'MKSTREAM');
      } catch (e) {
        if (!/BUSYGROUP/.test((e as Error).message)) throw e;
      }
      this.groups.add(key);
    }
    return key;
  }

  async heartbeat(m: Member): Promise<void> {
    await this.redis
      .pipeline()
      .hset(this.k('members'), m.id, JSON.stringify(m))
      .hset(this.k('beats'), m.id, String(m.beat))
      .exec();
  }

  async leave(id: string): Promise<void> {
    await this.redis.pipeline().hdel(this.k('members'), id).hdel(this.k('beats'), id).exec();
  }

  async members(deadMs: number): Promise<Member[]> {
    const all = await this.redis.hgetall(this.k('members'));
    const now = Date.now();
    const live: Member[] = [];
    for (const [id, v] of Object.entries(all)) {
      const m = JSON.parse(v) as Member;
      // its beat stays in beats, where claims read it
      if (now - m.beat > deadMs) await this.redis.hdel(this.k('members'), id);
      else live.push(m);
    }
    return live.sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async publish(items: readonly { bucket: string; msg: UrlMessage }[]): Promise<void> {
    if (!items.length) return;
    for (const b of new Set(items.map((i) => i.bucket))) await this.group(b);
    // MULTI, not a bare pipeline: a process killed while sending must not leave messages that
    // the published counter lacks (the crawl would never look quiet), nor the reverse
    const p = this.redis.multi();
    for (const it of items)
      p.xadd(
        this.k(`q:${it.bucket}`),
        '*',
        'url',
        it.msg.url,
        'score',
        String(it.msg.score),
        'depth',
        String(it.msg.depth),
      );
    p.incrby(this.k('published'), items.length);
    await p.exec();
  }

  async seed(items: readonly { bucket: string; msg: UrlMessage }[]): Promise<boolean> {
    const ok = await this.redis.set(this.k('seeded'), '1', 'NX');
    if (ok !== 'OK') return false;
    await this.publish(items);
    return true;
  }

  async read(consumer: string, buckets: readonly string[], max: number): Promise<Delivery[]> {
    if (!buckets.length) return [];
    const keys = await Promise.all(buckets.map((b) => this.group(b)));
    const res = (await this.redis.xreadgroup(
      'GROUP',
      GROUP,
      consumer,
      'COUNT',
      max,
      'STREAMS',
      ...keys,
      ...keys.map(() => '>'),
    )) as [string, [string, Fields][]][] | null;
    const out: Delivery[] = [];
    for (const [key, entries] of res ?? []) {
      const bucket = buckets[keys.indexOf(key)];
      for (const [id, f] of entries) out.push({ id, bucket, msg: toMsg(f) });
    }
    return out;
  }

  async reclaim(consumer: string, buckets: readonly string[], idleMs: number, max: number): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const b of buckets) {
      if (out.length >= max) break;
      const key = await this.group(b);
      const res = (await this.redis.xautoclaim(key, GROUP, consumer, idleMs, '0-0', 'COUNT', max - out.length)) as [
        string,
        [string, Fields][],
        string[],
      ];
      for (const [id, f] of res[1]) if (f) out.push({ id, bucket: b, msg: toMsg(f) });
    }
    return out;
  }

  async ack(items: readonly Delivery[]): Promise<void> {
    if (!items.length) return;
    const by = new Map<string, string[]>();
    for (const d of items) by.set(d.bucket, [...(by.get(d.bucket) ?? []), d.id]);
    // acknowledged and counted in one script: a process killed between the two left the crawl
    // never quiet (the messages were acked, so nobody reclaimed them, and settled stayed short)
    const ack = this.redis as unknown as { crawlAck(...a: string[]): Promise<number> };
    // at most 1,000 ids a call: Lua's unpack has a stack limit of about 8,000
    for (const [b, ids] of by)
      for (let i = 0; i < ids.length; i += 1000)
        await ack.crawlAck(this.k(`q:${b}`), this.k('settled'), GROUP, ...ids.slice(i, i + 1000));
  }

  /** Heartbeats are client clocks (Date.now()): machines of one crawl need synchronised clocks (NTP). */
  async claim(url: string, member: string, budget: number, deadMs: number): Promise<ClaimResult> {
    const r = await (this.redis as unknown as { crawlClaim(...a: (string | number)[]): Promise<string> }).crawlClaim(
      this.k('done'),
      this.k('claims'),
      this.k('pages'),
      this.k('beats'),
      url,
      member,
      budget,
      deadMs,
      Date.now(),
    );
    return r as ClaimResult;
  }

  async done(url: string): Promise<void> {
    await this.redis.pipeline().sadd(this.k('done'), url).hdel(this.k('claims'), url).exec();
  }

  async counters(): Promise<{ published: number; settled: number; pages: number }> {
    const [p, s, g] = await this.redis.mget(this.k('published'), this.k('settled'), this.k('pages'));
    return { published: Number(p ?? 0), settled: Number(s ?? 0), pages: Number(g ?? 0) };
  }

  /** Every URL fetched so far (the union over processes). */
  async fetchedUrls(): Promise<string[]> {
    return this.redis.smembers(this.k('done'));
  }

  /** Deletes every key of this crawl (a fresh start under the same name). */
  async reset(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', this.k('*'), 'COUNT', 1000);
      if (keys.length) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
