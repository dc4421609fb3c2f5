/**
 * A bench's figures written where the project keeps them: docs/benchmarks.md holds one block per
 * benchmark between `<!-- bench:ID -->` and `<!-- /bench:ID -->`, and a bench run with --record
 * replaces that block with what it measured and what it was measured on (commit, date, Node, the
 * machine), so a table in the docs is the script's output, never copied by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { provenance } from '../experiments/provenance.ts';
import { shipped } from '../lib/paths.ts';

export const BENCHMARKS_MD = 'docs/benchmarks.md';

/** The line that says what a measurement was made on. */
export function measuredOn(): string {
  const p = provenance();
  return (
    `commit ${p.commit?.slice(0, 12) ?? 'none'}, ${p.date.slice(0, 10)}, Node ${p.node}, ${p.platform}, ` +
    `${p.machine}, ${Math.round(totalmem() / 2 ** 30)} GB`
  );
}

/**
 * Replaces the block `id` of docs/benchmarks.md (or `file`) with `markdown`, the command that made
 * it and the measuredOn() line; an Error when the file has no such block (a bench must not write figures nobody reads).
 */
export function recordBench(
  id: string,
  markdown: string,
  file = shipped(BENCHMARKS_MD),
  /** What made it, when not `npm run bench:ID -- --record` (a bench with options of its own). */
  command = `npm run bench:${id} -- --record`,
): void {
  const text = readFileSync(file, 'utf8');
  const open = `<!-- bench:${id} -->`;
  const close = `<!-- /bench:${id} -->`;
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) throw new Error(`${file}: no block ${open} ... ${close} to record bench ${id} in`);
  const block = `${open}\n*Written by \`${command}\`: ${measuredOn()}.*\n\n${markdown.trim()}\n`;
  writeFileSync(file, text.slice(0, a) + block + text.slice(b));
}
