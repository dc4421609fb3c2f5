/**
 * Composition of sim/ and crawler/: start the synthetic web in-process for a crawl or an
 * experiment, and tell the crawler only what any user of a web would know (hostnames, homepages).
 */
import { loadConfig } from '../../sim/config.ts';
import { SimServer } from '../../sim/server.ts';
import { Web } from '../../sim/web.ts';

export interface StartedWeb extends GeneratedWeb {
  server: SimServer;
  port: number;
  close: () => Promise<void>;
}

/** A generated web and what a user of it would know, before anything is served. */
export interface GeneratedWeb {
  web: Web;
  departmentHosts: string[];
  departmentHomes: string[];
}

/** Generates the web of a config file (throws on a bad config): a CLI checks its flags against it before serving. */
export function generateSyntheticWeb(configFile: string, seed: number): GeneratedWeb {
  const web = new Web(loadConfig(configFile), seed);
  const depts = web.sites.filter((s) => s.kind === 'department');
  return { web, departmentHosts: depts.map((s) => s.host), departmentHomes: depts.map((s) => `http://${s.host}/`) };
}

/** Serves a generated web on a free loopback port. */
export async function serveSyntheticWeb(g: GeneratedWeb, opts: { faults?: boolean } = {}): Promise<StartedWeb> {
  const server = await SimServer.start(g.web, { faults: opts.faults ?? true });
  return { ...g, server, port: server.port, close: () => server.close() };
}

export async function startSyntheticWeb(
  configFile: string,
  seed: number,
  opts: { faults?: boolean } = {},
): Promise<StartedWeb> {
  return serveSyntheticWeb(generateSyntheticWeb(configFile, seed), opts);
}
