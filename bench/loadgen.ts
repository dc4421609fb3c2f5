/**
 * A load generator run as a child process (so the server under test keeps its own core):
 * keeps `concurrency` requests in flight against 127.0.0.1:port for `seconds`, cycling through
 * the given paths on the given Host headers, and prints {requests, seconds, rps, bytes, errors}.
 * Input: a JSON file named by argv[2]: { port, concurrency, seconds, targets: [host, path][] }.
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { type CliIo, parseCommand, runAsProcess, usage } from '../lib/cli.ts';

const USAGE = `Usage: node --import tsx bench/loadgen.ts JOB.json   (a child of bench:sim and bench:warc)\n`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {}, true);
  if (!p) return 0;
  if (p.positionals.length !== 1) usage('expected one job file (JSON)');
  interface Job {
    port: number;
    concurrency: number;
    seconds: number;
    targets: [string, string][];
  }
  const job = JSON.parse(readFileSync(p.positionals[0]!, 'utf8')) as Job;
  const pool = new Pool(`http://127.0.0.1:${job.port}`, { connections: job.concurrency, pipelining: 1 });
  let next = 0;
  let requests = 0;
  let bytes = 0;
  let errors = 0;
  const end = performance.now() + job.seconds * 1000;
  const t0 = performance.now();
  async function worker(): Promise<void> {
    while (performance.now() < end) {
      const [host, path] = job.targets[next++ % job.targets.length];
      try {
        const res = await pool.request({ method: 'GET', path, headers: { host } });
        for await (const chunk of res.body) bytes += (chunk as Buffer).length;
        if (res.statusCode >= 400) errors++;
        requests++;
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage();
  await pool.close();
  io.out(
    `${JSON.stringify({
      requests,
      seconds,
      rps: requests / seconds,
      bytes,
      errors,
      clientCpu: (cpu.user + cpu.system) / 1e6 / seconds,
    })}\n`,
  );
  return 0;
}

await runAsProcess(main, import.meta);
