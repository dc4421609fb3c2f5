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
import { recordBench } from './record.ts';

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
// what any node process costs: the budget is counted above it (issue #86: 0.3 CPU-s from the package)
const node = least(['-e', '0']);
const BUDGET = 0.3;
const lines = [
  `least CPU-s of ${ROUNDS} runs of \`COMMAND --help\`; \`node -e 0\`: ${node.toFixed(2)}; budget: ${BUDGET} above it`,
  '',
  '| command | sources | package | package above `node -e 0` | within 0.3 |',
  '|---|---|---|---|---|',
];
for (const l of lines) console.log(l);
// each command's module, from the npm script that runs it in a clone ("node --import tsx FILE")
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const sourceOf = (name: string): string => scripts[COMMANDS[name].npm].split(' ').at(-1)!;
let over = 0;
for (const name of Object.keys(COMMANDS)) {
  const src = least(['--import', 'tsx', sourceOf(name), '--help']);
  const pkg = least([join(dist, 'bin', 'harness.js'), name, '--help']);
  const above = pkg - node;
  if (above > BUDGET) over++;
  const line = `| ${name} | ${src.toFixed(2)} | ${pkg.toFixed(2)} | ${above.toFixed(2)} | ${above <= BUDGET ? 'yes' : '**no**'} |`;
  lines.push(line);
  console.log(line);
}
rmSync(dist, { recursive: true, force: true });
console.log(`\n${over ? `${over} commands over` : 'every command within'} ${BUDGET} CPU-s of node -e 0`);
if (process.argv.includes('--record')) recordBench('startup', lines.join('\n'));
