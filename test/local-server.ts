/** Tiny HTTP servers made inside tests, for behaviour the synthetic web does not have. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BfsStrategy, CrawlEngine, type CrawlSettings, type LogEntry } from '../crawler/index.ts';

export interface LocalServer {
  port: number;
  /** Every request seen: path, start time (performance.now()) and in-flight count at arrival. */
  log: { path: string; t: number; host: string; inFlight: number }[];
  close: () => Promise<void>;
}

export async function localServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const log: LocalServer['log'] = [];
  let inFlight = 0;
  const server: Server = createServer((req, res) => {
    inFlight++;
    log.push({ path: req.url ?? '', t: performance.now(), host: String(req.headers.host ?? ''), inFlight });
    res.on('close', () => {
      inFlight--;
    });
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    log,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function html(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`);
}

/** A breadth-first crawl of a local server's hosts (*.test), no politeness gap, quick retries: its summary and log. */
export async function crawlLocal(
  port: number,
  settings: Partial<CrawlSettings>,
  outDir?: string,
): Promise<{ summary: Awaited<ReturnType<CrawlEngine['run']>>; log: LogEntry[] }> {
  const log: LogEntry[] = [];
  const engine = CrawlEngine.create({
    settings: { resolve: [`*.test=127.0.0.1:${port}`], delayMs: 0, autoThrottle: false, retryBaseMs: 5, ...settings },
    strategy: new BfsStrategy(),
    outDir,
    onLog: (e) => log.push(e),
  });
  return { summary: await engine.run(), log };
}
