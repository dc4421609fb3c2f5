/**
 * npm run bench:frontier : memory per URL of the dedupe set and the frontier at 10,000,000
 * discovered URLs (targets: at most 100 bytes per seen URL, 300 per queued URL). URLs are
 * synthetic but of realistic length (mean about 55 characters over 10,000 hosts).
 * Run with --expose-gc (the npm script does) so that measurements follow a full collection.
 */
import { Frontier } from '../crawler/frontier.ts';
import { FingerprintSet } from '../crawler/url.ts';
import { type CliIo, parseCommand, runAsProcess, usage } from '../lib/cli.ts';

const USAGE = `Usage: npm run bench:frontier   (BENCH_URLS=N, default 10,000,000; needs node --expose-gc)\n`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {});
  if (!p) return 0;
  const log = (...parts: unknown[]): void => io.out(`${parts.join(' ')}\n`);

  const N = Number(process.env.BENCH_URLS ?? 10_000_000);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) usage('run with node --expose-gc (npm run bench:frontier does)');
  const used = (): number => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  // through the WHATWG parser, like normalizeUrl: a flat string, as the crawler stores it
  const url = (i: number): string =>
    new URL(`http://host${i % 10_000}.example.test/dir${(i >>> 7) % 500}/page-${i}.html`).href;

  {
    const before = used();
    const seen = new FingerprintSet();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) seen.add(url(i));
    const ms = performance.now() - t0;
    const bytes = used() - before;
    log(
      `seen set: ${seen.size.toLocaleString()} URLs, ${(bytes / N).toFixed(1)} bytes per seen ` +
        `URL (target <= 100; table ${Math.round(seen.bytes / 2 ** 20)} ` +
        `MB), ${Math.round((N / ms) * 1000).toLocaleString()} adds/s`,
    );
  }
  {
    const before = used();
    const f = new Frontier();
    const t0 = performance.now();
    let chars = 0;
    for (let i = 0; i < N; i++) {
      const u = url(i);
      chars += u.length;
      f.push({
        url: u,
        host: `host${i % 10_000}.example.test`,
        score: ((i * 2654435761) % 1000) / 1000,
        depth: i % 20,
        parent: i >> 3,
        redirects: 0,
        seq: i,
      });
    }
    const ms = performance.now() - t0;
    const bytes = used() - before;
    log(
      `frontier: ${N.toLocaleString()} queued URLs (mean ${(chars / N).toFixed(0)} ` +
        `chars), ${(bytes / N).toFixed(1)} bytes per queued URL including the URL string (target ` +
        `<= 300), ${Math.round((N / ms) * 1000).toLocaleString()} pushes/s`,
    );
    const t1 = performance.now();
    let popped = 0;
    while (popped < 1_000_000 && f.next()) popped++;
    log(`  popped ${popped.toLocaleString()} best-first in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  }
  return 0;
}

await runAsProcess(main, import.meta);
