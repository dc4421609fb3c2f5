/**
 * Where connections go: curl-style --resolve rules ("*.test=127.0.0.1:8080" or
 * "host:port:address"), and an address policy applied to every address a connection would use,
 * so a DNS answer or a redirect cannot lead the crawler into private networks or cloud metadata.
 */
import type { Socket } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { CrawlError } from './errors.ts';

export interface ResolveRule {
  /** Exact host or "*.suffix" pattern. */
  host: string;
  /** Only for this URL port (undefined: any). */
  port?: number;
  address: string;
  /** Port to connect to (undefined: the URL's). */
  toPort?: number;
}

export function parseResolveRule(spec: string): ResolveRule {
  const bad = (): never => {
    throw new CrawlError(
      'CRAWL_ERR_SETTINGS',
      `--resolve: "${spec}" is not HOST:PORT:ADDRESS or PATTERN=ADDRESS[:PORT]`,
    );
  };
  let rule: ResolveRule;
  if (spec.includes('=')) {
    const [host, target] = spec.split('=', 2);
    const m = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d{1,5}))?$/i.exec(target);
    if (!host || !m) bad();
    rule = {
      host: host.toLowerCase(),
      address: m![1].replace(/^\[|\]$/g, ''),
      toPort: m![2] ? Number(m![2]) : undefined,
    };
  } else {
    const m = /^([^:]+):(\d{1,5}):(.+)$/.exec(spec);
    if (!m) bad();
    rule = { host: m![1].toLowerCase(), port: Number(m![2]), address: m![3].replace(/^\[|\]$/g, '') };
  }
  if (!isIP(rule.address))
    throw new CrawlError('CRAWL_ERR_SETTINGS', `--resolve: "${rule.address}" is not an IP address`);
  if ((rule.toPort ?? 1) < 1 || (rule.toPort ?? 1) > 65535) bad();
  return rule;
}

export function hostMatches(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) || host === pattern.slice(2);
  return pattern === host;
}

function findRule(rules: readonly ResolveRule[], host: string, port: number): ResolveRule | undefined {
  return rules.find((r) => hostMatches(r.host, host) && (r.port === undefined || r.port === port));
}

export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'public';

const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8);
PRIVATE.addSubnet('172.16.0.0', 12);
PRIVATE.addSubnet('192.168.0.0', 16);
PRIVATE.addSubnet('100.64.0.0', 10);
PRIVATE.addSubnet('198.18.0.0', 15);
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fec0::', 10, 'ipv6'); // site-local (deprecated, still routed inside some networks)
PRIVATE.addSubnet('64:ff9b:1::', 48, 'ipv6'); // local-use NAT64 (RFC 8215)
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16);
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8);
LOOPBACK.addAddress('::1', 'ipv6');
const MULTICAST = new BlockList();
MULTICAST.addSubnet('224.0.0.0', 4);
MULTICAST.addSubnet('ff00::', 8, 'ipv6');
/**
 * Ranges of the IANA special-purpose address registries (IPv4: RFC 6890 and its updates; IPv6:
 * the same registry) that are not globally reachable and are not private, loopback, link-local or
 * multicast (those have their own classes above): no crawler has business there in any scope.
 */
const RESERVED = new BlockList();
RESERVED.addSubnet('240.0.0.0', 4); // reserved; 255.255.255.255 is classed broadcast before this
RESERVED.addSubnet('192.0.0.0', 24); // IETF protocol assignments (DS-Lite, NAT64 discovery .170/.171, .192 ...)
RESERVED.addSubnet('192.0.2.0', 24); // documentation (TEST-NET-1)
RESERVED.addSubnet('198.51.100.0', 24); // documentation (TEST-NET-2)
RESERVED.addSubnet('203.0.113.0', 24); // documentation (TEST-NET-3)
RESERVED.addSubnet('192.88.99.0', 24); // 6to4 relay anycast, deprecated (RFC 7526)
RESERVED.addSubnet('100::', 64, 'ipv6'); // discard-only
RESERVED.addSubnet('2001:2::', 48, 'ipv6'); // benchmarking
RESERVED.addSubnet('2001:10::', 28, 'ipv6'); // ORCHID, deprecated
RESERVED.addSubnet('2001:db8::', 32, 'ipv6'); // documentation
RESERVED.addSubnet('3fff::', 20, 'ipv6'); // documentation (RFC 9637)
RESERVED.addSubnet('5f00::', 16, 'ipv6'); // SRv6 SIDs
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/** The 16 bytes of an IPv6 address (any textual form, an embedded dotted quad included). */
function ipv6Bytes(ip: string): number[] {
  let text = ip.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === null ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

/**
 * The IPv4 addresses an IPv6 address carries, which reach those IPv4 hosts through a
 * translator or a tunnel: IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96), NAT64
 * (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32: the server, and the client XOR 0xff).
 */
function embeddedIpv4(ip: string): { addresses: string[]; translated: boolean } {
  const b = ipv6Bytes(ip);
  const v4 = (k: number, xor = 0): string =>
    b
      .slice(k, k + 4)
      .map((x) => x ^ xor)
      .join('.');
  const zero = (from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);
  const local = (addresses: string[]): { addresses: string[]; translated: boolean } => ({
    addresses,
    translated: false,
  });
  const remote = (addresses: string[]): { addresses: string[]; translated: boolean } => ({
    addresses,
    translated: true,
  });
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return local([v4(12)]);
  // IPv4-translated (::ffff:0:0:0/96, RFC 2765): an address a stateless translator maps to IPv4
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return remote([v4(12)]);
  if (zero(0, 12) && !zero(12, 16) && !(zero(12, 15) && b[15] === 1)) return local([v4(12)]);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return remote([v4(12)]);
  if (b[0] === 0x20 && b[1] === 0x02) return remote([v4(2)]);
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return remote([v4(4), v4(12, 0xff)]);
  return local([]);
}

/** Classes no crawler should connect to in any scope (`allowPrivateAddresses` does not lift them). */
const NEVER: readonly AddressClass[] = ['unspecified', 'multicast', 'broadcast', 'reserved'];
const SEVERITY: readonly AddressClass[] = [
  'metadata',
  'unspecified',
  'broadcast',
  'multicast',
  'reserved',
  'link-local',
  'private',
  'loopback',
  'public',
];

export function classifyAddress(ip: string): AddressClass {
  const v = isIP(ip);
  if (!v) return 'public';
  if (v === 6) {
    // an IPv6 address that embeds IPv4 addresses is as dangerous as the worst of them; a
    // loopback address behind a translator or tunnel is someone else's loopback
    const { addresses, translated } = embeddedIpv4(ip);
    const inner = addresses.map(classifyAddress).map((c) => (translated && c === 'loopback' ? 'private' : c));
    if (inner.length) return inner.sort((a, b) => SEVERITY.indexOf(a) - SEVERITY.indexOf(b))[0];
  }
  const type = v === 6 ? 'ipv6' : 'ipv4';
  if (METADATA.has(ip.toLowerCase())) return 'metadata';
  if (ip === '0.0.0.0' || ip.startsWith('0.') || (v === 6 && ipv6Bytes(ip).every((x) => x === 0))) return 'unspecified';
  if (ip === '255.255.255.255') return 'broadcast';
  if (LOOPBACK.check(ip, type)) return 'loopback';
  if (LINK_LOCAL.check(ip, type)) return 'link-local';
  if (MULTICAST.check(ip, type)) return 'multicast';
  if (RESERVED.check(ip, type)) return 'reserved';
  if (PRIVATE.check(ip, type)) return 'private';
  return 'public';
}

/** Whether a connection to an address of this class is allowed. */
export function addressAllowed(c: AddressClass, allowPrivate: boolean): boolean {
  return c === 'public' || c === 'loopback' || (allowPrivate && !NEVER.includes(c));
}

/** Throws CRAWL_ERR_ADDRESS_REFUSED unless the address may be connected to. */
function checkAddress(ip: string, allowPrivate: boolean): void {
  const c = classifyAddress(ip);
  if (addressAllowed(c, allowPrivate)) return;
  throw new CrawlError('CRAWL_ERR_ADDRESS_REFUSED', `refused to connect to ${ip} (${c} address)`);
}

/** An interim response's head: "HTTP/1.x 1xx ..." up to its blank line (101 switches protocols: not skipped). */
const INTERIM = /^HTTP\/1\.[01] 1(?!01)\d\d[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n/;
/** Most bytes of interim heads held back while waiting for their end. */
const MAX_INTERIM = 16 * 1024;

/**
 * RFC 9110 15.2: a client must parse and skip 1xx interim responses it did not ask for (a server
 * may send "100 Continue" before any response); undici's parser rejects them as a bad response.
 * The socket's incoming bytes are filtered before undici reads them: after each request written
 * (one at a time: pipelining 1), interim heads at the start of the response are dropped.
 */
function skipInterimResponses<S extends Socket>(socket: S): S {
  let atStart = false;
  let held: Buffer | null = null;
  const write = socket.write.bind(socket) as typeof socket.write;
  socket.write = ((...args: Parameters<typeof socket.write>) => {
    atStart = true;
    held = null;
    return write(...args);
  }) as typeof socket.write;
  const push = socket.push.bind(socket);
  socket.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (!atStart || !Buffer.isBuffer(chunk)) return push(chunk, encoding);
    // the usual answer: a status line whose code does not start with 1 ("HTTP/1.1 200"), decided
    // from one byte instead of a Latin-1 copy of the chunk
    if (!held && chunk.length >= 12 && chunk[9] !== 0x31 /* 1 */) {
      atStart = false;
      return push(chunk, encoding);
    }
    let buf: Buffer = held ? Buffer.concat([held, chunk]) : chunk;
    held = null;
    for (;;) {
      const text = buf.subarray(0, Math.min(buf.length, MAX_INTERIM)).toString('latin1');
      const m = INTERIM.exec(text);
      if (m) {
        buf = buf.subarray(m[0].length);
        continue;
      }
      // the start of an interim head whose end has not arrived yet: wait for it
      if (/^HTTP\/1\.[01] 1(?!01)\d\d/.test(text) && !text.includes('\r\n\r\n') && buf.length < MAX_INTERIM) {
        held = buf;
        return true;
      }
      if (buf.length >= 12 || !'HTTP/1.1 100'.startsWith(text.slice(0, buf.length))) atStart = false;
      else {
        held = buf;
        return true;
      }
      return buf.length ? push(buf) : true;
    }
  };
  return socket;
}

/** Where a connection to hostname:port goes: its resolve rule's address and port, else the name itself. */
export function connectTarget(
  rules: readonly ResolveRule[],
  hostname: string,
  port: number,
): { address: string; port: number } {
  const rule = findRule(rules, hostname, port);
  return rule
    ? { address: rule.address, port: rule.toPort ?? port }
    : { address: hostname.replace(/^\[|\]$/g, ''), port };
}

/**
 * An undici Agent whose connections follow the resolve rules and the address policy. Every
 * crawl request goes through it, including robots.txt and redirects.
 */
export function crawlerDispatcher(
  rules: readonly ResolveRule[],
  allowPrivate: boolean,
  opts: { connectTimeoutMs: number; connections?: number },
): Dispatcher {
  const guardedLookup = (
    hostname: string,
    options: object,
    cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, '', 0);
      const list = addresses as LookupAddress[];
      try {
        for (const a of list) checkAddress(a.address, allowPrivate);
      } catch (e) {
        return cb(e as Error, '', 0);
      }
      const all = (options as { all?: boolean }).all;
      if (all) cb(null, list);
      else cb(null, list[0].address, list[0].family);
    });
  };
  const connect = buildConnector({
    timeout: opts.connectTimeoutMs,
    lookup: guardedLookup,
  } as buildConnector.BuildOptions);
  return new Agent({
    connections: opts.connections ?? 64,
    pipelining: 1,
    connect: (o, cb) => {
      const port = Number(o.port || (o.protocol === 'https:' ? 443 : 80));
      const { address: target, port: toPort } = connectTarget(rules, o.hostname, port);
      if (isIP(target)) {
        try {
          checkAddress(target, allowPrivate);
        } catch (e) {
          return cb(e as Error, null);
        }
      }
      connect(
        {
          ...o,
          hostname: target,
          host: `${target}:${toPort}`,
          port: String(toPort),
          servername: o.servername ?? o.hostname,
        },
        (err, socket) =>
          err || !socket ? cb(err ?? new Error('no socket'), null) : cb(null, skipInterimResponses(socket)),
      );
    },
  });
}
