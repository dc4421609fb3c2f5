/**
 * npm run bench:scale: one focused comparison (bfs, immediate, future, adaptive, the oracle) on
 * webs of 10^4, 10^5 and 10^6 pages with a budget of 10% of the web per run (bench/scale-run.ts),
 * each size in a child process of its own so its peak memory is its own. Prints per size: wall
 * time, the seconds of each phase, CPU microseconds per page per strategy and peak memory; and how
 * each strategy's cost per page grew from the smallest size to the largest (issue #55 asks for
 * within 1.5x). `--sizes 10000,100000` for others; `--one N` measures one size in this process and
 * prints it as JSON (what the parent runs).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliIo, intFlag, parseCommand, runAsProcess, usage } from '../lib/cli.ts';
import { heapMb } from '../experiments/heap-budget.ts';
import { recordBench } from './record.ts';
import { heapFlag, WORKER_FLAGS } from '../experiments/pool.ts';
import { measureScale, SCALE_STRATEGIES, type ScaleResult } from './scale-run.ts';

const USAGE = `usage: npm run bench:scale [-- --sizes N,N,...] [--queue URL [--queue-workers K] | --no-caches | --alone] [--record]

One focused comparison per web size, budget 10% of the web: wall time, phases, CPU per page per
strategy, peak memory. Default sizes 10000,100000,1000000 (the largest takes about half an hour on
2 cores). With --queue, each size also runs through the Redis queue at URL on K worker processes
(default 2) started here, and its CSVs are compared with the local run's, byte for byte. With
--no-caches, the environments keep no parsed or generated pages between training and the crawls
at any size (by default they keep them when a run's budget fits the parse cache, as experiments
do: experiments/focused/env.ts cachesFor), so that every page costs its whole render and parse.
With --alone, each strategy runs in a comparison of its own (the oracle beside it), in a process of
its own, with the caches as experiments keep them: its cost per page is then its own, not what the
strategies before it in one job left parsed (the adaptive crawler, last, found every page of a
10^4 web parsed); wall, phases and peak are summed and the maximum over the strategies' runs.
With --record, the table replaces the bench:scale block of docs/benchmarks.md, with the commit,
date and machine (bench/record.ts). Each size runs with the heap an experiment's job process gets
for that web (experiments/heap-budget.ts); a size this machine cannot hold is not measured, and the
table says why. Also: --one N [--out DIR] [--queue URL] [--strategies a,b] measures one size in
this process and prints JSON.
`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv, io, USAGE, {
    sizes: { type: 'string' },
    one: { type: 'string' },
    out: { type: 'string' },
    strategies: { type: 'string' },
    queue: { type: 'string' },
    'queue-workers': { type: 'string' },
    'no-caches': { type: 'boolean' },
    alone: { type: 'boolean' },
    record: { type: 'boolean' },
  });
  if (!parsed) return 0;
  const v = parsed.values;
  const caches = v['no-caches'] ? 'none' : undefined;
  if (v['no-caches'] && v.queue) usage('--no-caches: a measurement in one process, not through the queue');
  if (v.alone && (v.queue || v['no-caches'] || v.one !== undefined))
    usage('--alone: a measurement of its own, with neither --queue, --no-caches nor --one');
  if (v.one !== undefined) {
    // the largest web is the one the memory rule gives this machine (experiments/heap-budget.ts), not a fixed number
    const n = intFlag('one', v.one, 1_000, 100_000_000)!;
    try {
      heapMb(n, 1);
    } catch (e) {
      usage(`--one ${n}: ${(e as Error).message}`);
    }
    const strategies = v.strategies?.split(',').filter(Boolean);
    io.out(`${JSON.stringify(await measureScale(n, { queue: v.queue, out: v.out, strategies, caches }))}\n`);
    return 0;
  }
  const queueWorkers = intFlag('queue-workers', v['queue-workers'], 1, 64) ?? 2;
  const sizes = (v.sizes ?? '10000,100000,1000000').split(',').map((x) => intFlag('sizes', x, 1_000, 100_000_000)!);
  if (!sizes.length) usage('--sizes: name one size or more');
  const results: ScaleResult[] = [];
  const notes: string[] = [];
  let same = true;
  for (const n of sizes) {
    // a size the experiment command would refuse on this machine is not measured: the bench says why
    try {
      heapMb(n, 1);
    } catch (e) {
      notes.push(`${n.toLocaleString('en')} pages: not measured: ${(e as Error).message}`);
      io.out(`${notes.at(-1)}\n`);
      continue;
    }
    io.err(`measuring a web of ${n.toLocaleString('en')} pages ...\n`);
    const local = mkdtempSync(join(tmpdir(), 'scale-local-'));
    results.push(
      v.alone
        ? alone(n, (s) => io.err(`  ${s} in a comparison of its own ...\n`))
        : one(n, ['--out', local, ...(v['no-caches'] ? ['--no-caches'] : [])]),
    );
    io.out(table(results));
    if (v.queue) {
      io.err(`the same through the queue on ${queueWorkers} workers ...\n`);
      const queued = mkdtempSync(join(tmpdir(), 'scale-queue-'));
      const workers = Array.from({ length: queueWorkers }, () =>
        spawn(
          process.execPath,
          [
            // the worker holds no web: its job processes are given the heap the job's web needs
            ...WORKER_FLAGS,
            '--import',
            'tsx',
            'experiments/cli/worker.ts',
            '--queue',
            v.queue!,
            '--no-cache',
          ],
          { stdio: ['ignore', 'ignore', 'inherit'] },
        ),
      );
      try {
        const q = one(n, ['--out', queued, '--queue', v.queue]);
        const diff = compareCsvs(local, queued);
        same &&= diff.length === 0;
        notes.push(
          `${n.toLocaleString('en')} pages through the queue (${queueWorkers} workers): wall ` +
            `${f1(q.wallS)} s; CSVs ${diff.length ? `DIFFER: ${diff.join(', ')}` : `the same (${csvs(local).join(', ')})`}`,
        );
        io.out(`${notes.at(-1)}\n`);
      } finally {
        for (const w of workers) w.kill('SIGTERM');
        rmSync(queued, { recursive: true, force: true });
      }
    }
    rmSync(local, { recursive: true, force: true });
  }
  if (v.record) {
    const how = v.alone ? ' (--alone)' : v['no-caches'] ? ' (--no-caches)' : '';
    recordBench(
      'scale',
      `Sizes ${sizes.join(', ')}${how}:\n${results.length ? table(results) : ''}\n${notes.join('\n\n')}`,
    );
    io.out(`recorded in docs/benchmarks.md\n`);
  }
  if (!results.length) {
    // every size refused: a bench that measured nothing is not a pass
    io.err(`error: no size measured (${sizes.join(', ')}): ${notes.join('; ')}\n`);
    return 1;
  }
  return same ? 0 : 1;
}

/** One size in a child process of its own (its peak memory is its own). */
function one(n: number, extra: string[]): ScaleResult {
  const child = spawnSync(
    process.execPath,
    [
      // the heap an experiment's job process gets for this web (experiments/heap-budget.ts): one rule
      ...WORKER_FLAGS,
      heapFlag(heapMb(n, 1)),
      '--import',
      'tsx',
      'bench/scale.ts',
      '--one',
      String(n),
      ...extra,
    ],
    { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (child.status !== 0) throw new Error(`bench:scale --one ${n} failed (exit ${child.status ?? child.signal})`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as ScaleResult;
}

/**
 * Each strategy in a comparison of its own (bfs, immediate, future, adaptive: one child process
 * each, the oracle beside each), merged: each strategy's cost and parse share from its own run, the
 * oracle's from the first; wall, phases and pages summed, peak the largest.
 */
function alone(n: number, say: (strategy: string) => void): ScaleResult {
  const runs = SCALE_STRATEGIES.map((s) => {
    say(s);
    return { s, r: one(n, ['--strategies', s]) };
  });
  const first = runs[0].r;
  const phases = { ...first.phases };
  for (const { r } of runs.slice(1))
    for (const k of Object.keys(phases) as (keyof typeof phases)[]) phases[k] += r.phases[k];
  return {
    pages: n,
    budget: first.budget,
    phases,
    cpuPerPage: {
      ...Object.fromEntries(runs.map(({ s, r }) => [s, r.cpuPerPage[s]])),
      oracle: first.cpuPerPage.oracle,
    },
    crawled: { ...Object.fromEntries(runs.map(({ s, r }) => [s, r.crawled[s]])), oracle: first.crawled.oracle },
    parsedAnew: Object.fromEntries(runs.map(({ s, r }) => [s, r.parsedAnew[s]])),
    wallS: runs.reduce((a, { r }) => a + r.wallS, 0),
    peakMb: Math.max(...runs.map(({ r }) => r.peakMb)),
  };
}

const csvs = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.csv'))
    .sort();

/** The CSVs that differ between two output folders (or are in one only). */
function compareCsvs(a: string, b: string): string[] {
  const names = [...new Set([...csvs(a), ...csvs(b)])].sort();
  return names.filter((f) => {
    try {
      return !readFileSync(join(a, f)).equals(readFileSync(join(b, f)));
    } catch {
      return true;
    }
  });
}

const f0 = (x: number): string => x.toFixed(0);
const f1 = (x: number): string => x.toFixed(1);

/** The results as a markdown table, and the growth of each strategy's cost per page. */
export function table(rs: readonly ScaleResult[]): string {
  const strategies = Object.keys(rs[0].cpuPerPage);
  const L = [
    '',
    `| pages | budget | wall s | environment s | facts s | training s | crawl s | oracle s | ` +
      `outputs s | heap MB | peak MB | peak KB/page | ${strategies.map((s) => `${s} CPU us/page`).join(' | ')} |`,
    `|${'---|'.repeat(12 + strategies.length)}`,
    ...rs.map(
      (r) =>
        `| ${r.pages.toLocaleString('en')} | ${r.budget.toLocaleString('en')} | ${f1(r.wallS)} | ` +
        `${f1(r.phases.environment)} | ${f1(r.phases.facts)} | ${f1(r.phases.training)} | ` +
        `${f1(r.phases.crawl)} | ${f1(r.phases.oracle)} | ${f1(r.phases.outputs)} | ` +
        `${heapMb(r.pages, 1).toLocaleString('en')} | ${f0(r.peakMb)} | ${f1((r.peakMb * 1024) / r.pages)} | ` +
        `${strategies.map((s) => f0(r.cpuPerPage[s])).join(' | ')} |`,
    ),
    '',
    ...rs.map(
      (r) =>
        `Parsed anew at ${r.pages.toLocaleString('en')} pages (the rest from the parse cache): ${Object.entries(
          r.parsedAnew ?? {},
        )
          .map(([s, x]) => `${s} ${(100 * x).toFixed(0)}%`)
          .join(', ')}`,
    ),
    '',
  ];
  if (rs.length > 1) {
    const a = rs[0];
    const b = rs[rs.length - 1];
    L.push(
      `CPU per page at ${b.pages.toLocaleString('en')} over ${a.pages.toLocaleString('en')} ` +
        `pages: ${strategies.map((s) => `${s} ${(b.cpuPerPage[s] / a.cpuPerPage[s]).toFixed(2)}x`).join(', ')}`,
      '',
    );
  }
  return `${L.join('\n')}\n`;
}

await runAsProcess(main, import.meta);
