/**
 * Reads a deep-web experiment's outputs back (config.json, run.json and the CSVs that
 * writeDeepOutputs wrote), so the report and figures can be made again without rerunning:
 * `npm run report -- results/deepweb`. CSV cells: empty is null, true / false are booleans,
 * numbers are numbers; the rest stays text.
 */
import { existsSync } from 'node:fs';
import { readJsonFile, readTextFile } from '../../lib/input.ts';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { DeepwebConfig } from './config.ts';
import type { DeepwebData } from './rows.ts';

/** The CSVs a deep-web run writes, by the field of DeepwebData they hold. */
const DEEP_TABLES = {
  curves: 'curves.csv',
  summaries: 'summary.csv',
  templates: 'templates.csv',
  tau: 'tau.csv',
  scaling: 'scaling.csv',
  sites: 'sites.csv',
  ranges: 'ranges.csv',
  typed: 'typed.csv',
  audit: 'audit.csv',
  skippedForms: 'skipped-forms.csv',
} as const;

const NUMBER = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i;

function cell(v: string): string | number | boolean | null {
  if (v === '') return null;
  if (v === 'true' || v === 'false') return v === 'true';
  return NUMBER.test(v) ? Number(v) : v;
}

/** True when dir holds a deep-web experiment's outputs. */
export function isDeepOutputs(dir: string): boolean {
  if (!existsSync(join(dir, 'config.json'))) return false;
  return (readJsonFile(join(dir, 'config.json')) as { kind?: string }).kind === 'deepweb';
}

export function readDeepOutputs(dir: string): DeepwebData {
  // "_rerun" (older folders: "rerun") is the comment naming the command that made it
  const {
    rerun: _old,
    _rerun,
    ...config
  } = readJsonFile(join(dir, 'config.json')) as DeepwebConfig & { rerun?: string; _rerun?: string };
  const read = (file: string): unknown[] => {
    const text = existsSync(join(dir, file)) ? readTextFile(join(dir, file)) : '';
    if (!text.trim()) return [];
    return (parse(text, { columns: true }) as Record<string, string>[]).map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(v)])),
    );
  };
  const tables = Object.fromEntries(Object.entries(DEEP_TABLES).map(([k, f]) => [k, read(f)]));
  const run = existsSync(join(dir, 'run.json')) ? (readJsonFile(join(dir, 'run.json')) as { wall_ms?: number }) : {};
  // the command part of the comment ("CMD (or: npm run experiment -- DIR/config.json)"), kept on a rewrite
  const made = (_rerun ?? _old)?.replace(/ \(or: [^()]*\)$/, '');
  return { config, ...tables, wallMs: run.wall_ms ?? Number.NaN, made } as DeepwebData;
}
