/**
 * Composition of sim/ and crawler/: start the synthetic web in-process for a crawl or an
 * experiment, and tell the crawler only what any user of a web would know (hostnames, homepages).
 */
import { loadConfig } from '../sim/config.ts';
import { SimServer } from '../sim/server.ts';
import { Web } from '../sim/web.ts';

export interface StartedWeb {
  web: Web;
  server: SimServer;
  port: number;
  departmentHosts: string[];
  departmentHomes: string[];
  close: () => Promise<void>;
}

export async function startSyntheticWeb(
  configFile: string,
  seed: number,
  opts: { faults?: boolean } = {},
): Promise<StartedWeb> {
  const web = new Web(loadConfig(configFile), seed);
  const server = await SimServer.start(web, { faults: opts.faults ?? true });
  const depts = web.sites.filter((s) => s.kind === 'department');
  return {
    web,
    server,
    port: server.port,
    departmentHosts: depts.map((s) => s.host),
    departmentHomes: depts.map((s) => `http://${s.host}/`),
    close: () => server.close(),
  };
}
