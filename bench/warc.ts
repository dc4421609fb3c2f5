/**
 * npm run bench:warc : builds a 100,000-record WARC from the synthetic web (gzipped records),
 * then measures indexing speed, the index's memory, and replay pages/s (load from a child
 * process). BENCH_RECORDS changes the size.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { WARCRecord } from 'warcio';
import { serializeRecord } from '../lib/warc-records.ts';
import { loadConfig } from '../sim/config.ts';
import { Renderer } from '../sim/content.ts';
import { ReplayServer } from '../sim/archive-server.ts';
import { WarcArchive } from '../sim/warc-index.ts';
import { Web } from '../sim/web.ts';
import { makeRng } from '../sim/web-rng.ts';
import { type CliIo, parseCommand, runAsProcess } from '../lib/cli.ts';

const USAGE = `Usage: npm run bench:warc   (BENCH_RECORDS=N, default 100,000)\n`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {});
  if (!p) return 0;
  const log = (...parts: unknown[]): void => io.out(`${parts.join(' ')}\n`);

  const N = Number(process.env.BENCH_RECORDS ?? 100_000);
  const file = join(tmpdir(), `bench-${process.pid}.warc.gz`);
  const mb = (b: number): string => `${Math.round(b / 2 ** 20)} MB`;

  const web = new Web(loadConfig('data/webs/million.json'), 1);
  const r = new Renderer(web);
  let t0 = performance.now();
  writeFileSync(file, '');
  let batch: Uint8Array[] = [];
  const urls: string[] = [];
  for (let id = 0; id < N; id++) {
    const page = r.render(id);
    const body = typeof page.body === 'string' ? Buffer.from(page.body) : page.body;
    const url = r.url(id);
    urls.push(url);
    const payload = [new Uint8Array(body.buffer, body.byteOffset, body.byteLength)];
    const rec = WARCRecord.create(
      {
        url,
        date: '2026-01-01T00:00:00Z',
        type: 'response',
        warcVersion: 'WARC/1.1',
        statusline: 'HTTP/1.1 200 OK',
        httpHeaders: { 'Content-Type': page.contentType },
      },
      payload,
    );
    batch.push(await serializeRecord(rec, payload, true));
    if (batch.length === 1000) {
      appendFileSync(file, Buffer.concat(batch));
      batch = [];
    }
  }
  if (batch.length) appendFileSync(file, Buffer.concat(batch));
  log(
    `wrote ${N.toLocaleString()} gzipped response records (${mb(statSync(file).size)}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  t0 = performance.now();
  const archive = await WarcArchive.open([file]);
  const secs = (performance.now() - t0) / 1000;
  gc();
  const indexBytes = process.memoryUsage().heapUsed - heap0;
  log(
    `indexed ${archive.records.toLocaleString()} records in ${secs.toFixed(1)} s ` +
      `(${Math.round(archive.records / secs).toLocaleString()} records/s); the index ` +
      `holds ${mb(indexBytes)} of heap (${Math.round(indexBytes / archive.size)} bytes per URL; ` +
      `the archive stays on disk)`,
  );

  const server = await ReplayServer.start(archive);
  const rng = makeRng('bench-warc');
  const targets: [string, string][] = Array.from({ length: 20_000 }, () => {
    const u = new URL(urls[rng.int(urls.length)]);
    return [u.host, u.pathname];
  });
  const jobFile = join(tmpdir(), `loadgen-warc-${process.pid}.json`);
  writeFileSync(
    jobFile,
    JSON.stringify({ port: server.port, concurrency: 32, seconds: Number(process.env.BENCH_SECONDS ?? 5), targets }),
  );
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./loadgen.ts', import.meta.url)), jobFile],
    { encoding: 'utf8' },
  );
  const load = JSON.parse(stdout) as { rps: number; errors: number };
  log(
    `replay: ${Math.round(load.rps)} pages/s (${load.errors} errors), 32 concurrent requests ` +
      `from a child process; resident memory ${mb(process.memoryUsage().rss)}`,
  );
  await server.close();
  rmSync(file);
  rmSync(jobFile);
  return 0;
}

await runAsProcess(main, import.meta);
