/**
 * Where connections go: curl-style --resolve rules ("*.test=127.0.0.1:8080" or
 * "host:port:address"), and an address policy applied to every address a connection would use,
 * so a DNS answer or a redirect cannot lead the crawler into private networks or cloud metadata.
 */
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
  const bad = (): never => { throw new CrawlError('CRAWL_ERR_SETTINGS', `--resolve: "${spec}" is not HOST:PORT:ADDRESS or PATTERN=ADDRESS[:PORT]`); };
  let rule: ResolveRule;
  if (spec.includes('=')) {
    const [host, target] = spec.split('=', 2);
    const m = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d{1,5}))?$/i.exec(target);
    if (!host || !m) bad();
    rule = { host: host.toLowerCase(), address: m![1].replace(/^\[|\]$/g, ''), toPort: m![2] ? Number(m![2]) : undefined };
  } else {
    const m = /^([^:]+):(\d{1,5}):(.+)$/.exec(spec);
    if (!m) bad();
    rule = { host: m![1].toLowerCase(), port: Number(m![2]), address: m![3].replace(/^\[|\]$/g, '') };
  }
  if (!isIP(rule.address)) throw new CrawlError('CRAWL_ERR_SETTINGS', `--resolve: "${rule.address}" is not an IP address`);
  if ((rule.toPort ?? 1) < 1 || (rule.toPort ?? 1) > 65535) bad();
  return rule;
}

export function hostMatches(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) || host === pattern.slice(2);
  return pattern === host;
}

export function findRule(rules: readonly ResolveRule[], host: string, port: number): ResolveRule | undefined {
  return rules.find((r) => hostMatches(r.host, host) && (r.port === undefined || r.port === port));
}

export type AddressClass = 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'public';

const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8);
PRIVATE.addSubnet('172.16.0.0', 12);
PRIVATE.addSubnet('192.168.0.0', 16);
PRIVATE.addSubnet('100.64.0.0', 10);
PRIVATE.addSubnet('198.18.0.0', 15);
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16);
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8);
LOOPBACK.addAddress('::1', 'ipv6');
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

export function classifyAddress(ip: string): AddressClass {
  const v = isIP(ip);
  if (!v) return 'public';
  const type = v === 6 ? 'ipv6' : 'ipv4';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return classifyAddress(mapped[1]);
  if (METADATA.has(ip.toLowerCase())) return 'metadata';
  if (ip === '0.0.0.0' || ip === '::' || ip.startsWith('0.')) return 'unspecified';
  if (LOOPBACK.check(ip, type)) return 'loopback';
  if (LINK_LOCAL.check(ip, type)) return 'link-local';
  if (PRIVATE.check(ip, type)) return 'private';
  return 'public';
}

/** Throws CRAWL_ERR_ADDRESS_REFUSED unless the address may be connected to. */
export function checkAddress(ip: string, allowPrivate: boolean): void {
  const c = classifyAddress(ip);
  if (c === 'public' || c === 'loopback') return;
  if (allowPrivate && c !== 'unspecified') return;
  throw new CrawlError('CRAWL_ERR_ADDRESS_REFUSED', `refused to connect to ${ip} (${c} address)`);
}

/**
 * An undici Agent whose connections follow the resolve rules and the address policy. Every
 * crawl request goes through it, including robots.txt and redirects.
 */
export function crawlerDispatcher(rules: readonly ResolveRule[], allowPrivate: boolean, opts: { connectTimeoutMs: number; connections?: number }): Dispatcher {
  const guardedLookup = (hostname: string, options: object, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void): void => {
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
  const connect = buildConnector({ timeout: opts.connectTimeoutMs, lookup: guardedLookup } as buildConnector.BuildOptions);
  return new Agent({
    connections: opts.connections ?? 64,
    pipelining: 1,
    connect: (o, cb) => {
      const port = Number(o.port || (o.protocol === 'https:' ? 443 : 80));
      const rule = findRule(rules, o.hostname, port);
      const target = rule ? rule.address : o.hostname;
      if (isIP(target)) {
        try {
          checkAddress(target, allowPrivate);
        } catch (e) {
          return cb(e as Error, null);
        }
      }
      const toPort = String(rule?.toPort ?? port);
      connect({ ...o, hostname: target, host: `${target}:${toPort}`, port: toPort, servername: o.servername ?? o.hostname }, cb);
    },
  });
}
