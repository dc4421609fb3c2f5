/**
 * npm run bench:startup: what a command costs before it does anything. Each command's `--help`,
 * started as a process from the sources (node --import tsx, as `npm run COMMAND` in a clone) and
 * from the built package (node dist/bin/harness.js COMMAND, as `npx crawler-harness COMMAND`),
 * five times each; prints the least CPU time (user + system) of each, from Linux's /proc accounting
 * of waited-for children. The package is built by tsc into a scratch folder first. Tests start
 * about twenty such processes; a researcher starts one per command.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../bin/harness.ts';
import { childrenCpu } from './children-cpu.ts';

const ROUNDS = 5;

/** The least CPU seconds of ROUNDS runs of node with these arguments. */
function least(args: string[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) {
    const before = childrenCpu();
    const p = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    if (p.status !== 0) throw new Error(`node ${args.join(' ')}: exit ${p.status}: ${p.stderr}`);
    best = Math.min(best, childrenCpu() - before);
  }
  return best;
}

// inside the repository, so that the built modules find the shipped files and node_modules
const dist = join(process.cwd(), 'node_modules', '.cache', 'bench-startup-dist');
execFileSync(join('node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', dist], {
  stdio: 'inherit',
});
const head = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
})();
console.log(
  `${head}, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}), Node ${process.version}`,
);
console.log(`least CPU-s of ${ROUNDS} runs of COMMAND --help\n`);
console.log(`${'command'.padEnd(14)} ${'sources'.padStart(8)} ${'package'.padStart(8)}`);
// each command's module, from the npm script that runs it in a clone ("node --import tsx FILE")
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const sourceOf = (name: string): string => scripts[COMMANDS[name].npm].split(' ').at(-1)!;
for (const name of Object.keys(COMMANDS)) {
  const src = least(['--import', 'tsx', sourceOf(name), '--help']);
  const pkg = least([join(dist, 'bin', 'harness.js'), name, '--help']);
  console.log(`${name.padEnd(14)} ${src.toFixed(2).padStart(8)} ${pkg.toFixed(2).padStart(8)}`);
}
rmSync(dist, { recursive: true, force: true });
