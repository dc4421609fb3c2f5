/**
 * The ceiling of bench:crawl: the least a crawler must do. A queue, a Set, undici, htmlparser2
 * for hrefs. Shared by the warm comparison (bench/crawl.ts, in process) and the cold one
 * (bench/minimal-loop.ts, a process of its own).
 */
import { Agent, buildConnector, request } from 'undici';
import { Parser } from 'htmlparser2';

/** What the loop crawls: its start URLs, which hosts it keeps to, its budget and requests in flight. */
export interface LoopScenario {
  startUrls: string[];
  inScope: (host: string) => boolean;
  pages: number;
  concurrency: number;
}

/** Pages fetched by the loop from the server at `port` (every host resolved to it). */
export async function minimalLoop(port: number, sc: LoopScenario): Promise<number> {
  const { startUrls, concurrency: CONCURRENCY, pages: PAGES } = sc;
  const connect = buildConnector({});
  const agent = new Agent({
    connections: 8,
    connect: (o, cb) => connect({ ...o, hostname: '127.0.0.1', host: `127.0.0.1:${port}`, port: String(port) }, cb),
  });
  const seen = new Set<string>(startUrls);
  const queue = [...startUrls];
  let fetched = 0;
  let active = 0;
  await new Promise<void>((done) => {
    const pump = (): void => {
      while (active < CONCURRENCY && queue.length && fetched + active < PAGES) {
        const url = queue.shift()!;
        active++;
        request(url, { dispatcher: agent })
          .then(async (res) => {
            const type = String(res.headers['content-type'] ?? '');
            const body = await res.body.text();
            if (type.startsWith('text/html')) {
              const p = new Parser({
                onopentag(name, a) {
                  if (name !== 'a' || !a.href) return;
                  try {
                    const u = new URL(a.href, url);
                    u.hash = '';
                    if (sc.inScope(u.hostname) && !seen.has(u.href)) {
                      seen.add(u.href);
                      queue.push(u.href);
                    }
                  } catch {
                    /* bad href */
                  }
                },
              });
              p.write(body);
              p.end();
            }
          })
          .catch(() => {})
          .finally(() => {
            active--;
            fetched++;
            if (fetched >= PAGES || (active === 0 && !queue.length)) done();
            else pump();
          });
      }
    };
    pump();
  });
  await agent.close();
  return fetched;
}
