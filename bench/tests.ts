/**
 * npm run bench:tests [-- --full | vitest args]: where npm test's (or test:full's) time goes. Runs
 * what npm test runs (tsc, biome, vitest run; vitest alone when given args, e.g. a file), then
 * prints each step's wall time, the CPU time of the whole process tree (every process vitest and
 * the tests started and waited for, Linux's /proc/self/stat), and the test files that cost most CPU in their worker process
 * (test/cpu-meter.ts): a file's own code and threads, not the processes it starts, whose CPU is
 * the tree's total less the files' sum. On two cores a suite's wall time cannot fall below half its
 * CPU time, which is why this prints CPU: wall times under the suite's contention say little about
 * a file. vitest's output goes to a file, named at the end; a failing run prints its last lines.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenCpu } from './children-cpu.ts';
import { recordBench } from './record.ts';

const TOP = Number(process.env.BENCH_TOP ?? 20);
const dir = mkdtempSync(join(tmpdir(), 'bench-tests-'));
const cpuLog = join(dir, 'files.jsonl');
const outLog = join(dir, 'vitest.log');
writeFileSync(cpuLog, '');

/** Runs a step, its output appended to the log; its wall seconds and exit code. */
function step(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ wallS: number; code: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    p.stdout.on('data', (b: Buffer) => chunks.push(b));
    p.stderr.on('data', (b: Buffer) => chunks.push(b));
    p.on('close', (code) => {
      writeFileSync(outLog, Buffer.concat(chunks), { flag: 'a' });
      resolve({ wallS: (performance.now() - t0) / 1000, code: code ?? 1 });
    });
  });
}

// --full: what npm run test:full runs (every tier); other arguments go to vitest alone
const full = process.argv.includes('--full');
// --record: the default tier's figures into docs/benchmarks.md (bench/record.ts), against its budget
const record = process.argv.includes('--record');
const given = process.argv.slice(2).filter((a) => a !== '--full' && a !== '--record');
const bin = (name: string): string => join('node_modules', '.bin', name);
const steps: [string, string, string[]][] = given.length
  ? [['vitest run', bin('vitest'), ['run', ...given]]]
  : [
      ['tsc', bin('tsc'), ['-p', '.']],
      ['biome', bin('biome'), ['check', '.']],
      ['vitest run', bin('vitest'), ['run', ...(full ? ['--mode', 'full'] : [])]],
    ];
const cpu0 = childrenCpu();
const wall0 = performance.now();
let failed = false;
for (const [name, cmd, args] of steps) {
  const r = await step(cmd, args, { TEST_CPU_LOG: cpuLog });
  console.log(`${name.padEnd(12)} ${r.wallS.toFixed(1).padStart(7)} s wall${r.code ? `  (exit ${r.code})` : ''}`);
  if (r.code) {
    failed = true;
    break;
  }
}
const wallS = (performance.now() - wall0) / 1000;
const treeS = childrenCpu() - cpu0;
const files = readFileSync(cpuLog, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { file: string; cpuS: number; wallS: number })
  .map((f) => ({ ...f, file: f.file.replace(`${process.cwd()}/`, '') }))
  .sort((a, b) => b.cpuS - a.cpuS);
const inFiles = files.reduce((a, f) => a + f.cpuS, 0);
const commit = (() => {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return '(not a git checkout)';
  }
})();
console.log(
  `\n${commit}, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}), Node ${process.version}`,
);
console.log(`total        ${wallS.toFixed(1).padStart(7)} s wall, ${treeS.toFixed(0)} CPU-s in all processes`);
console.log(
  `test files   ${files.length} in their workers: ${inFiles.toFixed(0)} CPU-s; everything ` +
    `else (vitest, loading modules, the processes tests start): ${(treeS - inFiles).toFixed(0)} CPU-s`,
);
console.log(`\n  CPU s   wall s  file (the ${Math.min(TOP, files.length)} costliest in their worker)`);
for (const f of files.slice(0, TOP))
  console.log(`${f.cpuS.toFixed(1).padStart(7)}  ${f.wallS.toFixed(1).padStart(7)}  ${f.file}`);
console.log(`\nvitest's output: ${outLog}`);
/** What the default tier may cost in all, tsc, biome, the build and the tests (issue #86). */
const BUDGET_CPU_S = 150;
const tier = given.length ? `vitest run ${given.join(' ')}` : full ? 'the full tier' : 'the default tier';
const verdict =
  !given.length && !full
    ? `: ${treeS <= BUDGET_CPU_S ? 'within' : '**over**'} its budget of ${BUDGET_CPU_S} CPU-s (issue #86)`
    : '';
console.log(`\n${tier}: ${treeS.toFixed(0)} CPU-s, ${wallS.toFixed(1)} s wall${verdict}`);
if (record && !failed && !given.length) {
  const lines = [
    `${tier}: **${treeS.toFixed(0)} CPU-s** in all processes, ${wallS.toFixed(1)} s wall${verdict}; ${files.length} ` +
      `test files, ${inFiles.toFixed(0)} CPU-s in their workers, ${(treeS - inFiles).toFixed(0)} CPU-s in ` +
      'everything else (tsc, biome, the build, vitest, loading modules, the processes tests start).',
    '',
    '| CPU-s | wall s | file (the costliest in their worker) |',
    '|---|---|---|',
    ...files.slice(0, 10).map((f) => `| ${f.cpuS.toFixed(1)} | ${f.wallS.toFixed(1)} | \`${f.file}\` |`),
  ];
  recordBench(
    full ? 'tests-full' : 'tests',
    lines.join('\n'),
    undefined,
    `npm run bench:tests -- ${full ? '--full ' : ''}--record`,
  );
}
if (failed) {
  console.log(readFileSync(outLog, 'utf8').split('\n').slice(-40).join('\n'));
  process.exitCode = 1;
}
