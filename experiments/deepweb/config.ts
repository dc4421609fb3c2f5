/**
 * Deep-web experiment configs (experiments/configs/*.json with "kind": "deepweb"): which web,
 * seeds, database size, submission budget and methods; ISIT and probing parameters; the
 * database-size sweep and the tau sweep. Every field has a default; validation names the field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resource } from '../../lib/paths.ts';
import { createRequire } from 'node:module';
import { ExperimentConfigError } from '../config.ts';
import { checkNumbers, numberDefaults, numberProblem, type NumberField } from '../../lib/fields.ts';

export const DEEP_METHODS = ['isit', 'cartesian', 'probe-random', 'probe-generic', 'probe-adaptive'] as const;
export type DeepMethod = (typeof DEEP_METHODS)[number];

export interface DeepwebConfig {
  kind: 'deepweb';
  name: string;
  description: string;
  /** Web config with deepweb.sites (their record counts are replaced by `records`). */
  web: string;
  seeds: number[];
  /** Records per search site in the main comparison. */
  records: number;
  /** Submissions (requests to a form's action, result pages included) per run. */
  budget: number;
  /** Curves are sampled every this many submissions. */
  every: number;
  methods: DeepMethod[];
  /** ISIT; typed: type text inputs by probing; ranges: cover range pairs with intervals (issue #20). */
  isit: { tau: number; maxDimension: number; sampleSize: number; typed: boolean; ranges: boolean };
  probe: { roundSize: number; candidates: number };
  /** Seed keywords per site kind (the user's hint): one word per line, # comments. */
  keywords: Record<string, string>;
  /** The random policy's word list: a file (one word per line) or npm:PACKAGE (a package exporting an array of words). */
  dictionary: string;
  generic: string;
  /** Database-size sweep: ISIT and Cartesian, submissions to reach `target` coverage (at most `budget`), per seed. */
  scaling: { records: number[]; target: number; budget: number; seeds: number[] };
  /** ISIT's tau values tried on the first seed. */
  tauSweep: number[];
  crawl: { delayMs: number };
  quick: Partial<Omit<DeepwebConfig, 'quick' | 'name' | 'kind'>>;
}

/**
 * Every numeric field of a deep-web config, once: default, range and help. DEFAULT_DEEPWEB's
 * numbers, resolveDeepweb()'s ranges and `npm run experiment -- --help` derive from this table.
 */
export const DEEPWEB_NUMBERS: readonly NumberField[] = [
  { path: 'records', default: 10_000, min: 1000, max: 1_000_000, integer: true, help: 'records per search site' },
  { path: 'budget', default: 2000, min: 1, max: 1_000_000, integer: true, help: 'submissions per run' },
  { path: 'every', default: 50, min: 1, max: 1_000_000, integer: true, help: 'submissions between rows (<= budget)' },
  { path: 'isit.tau', default: 0.2, min: 0, max: 1, help: 'informativeness threshold (Madhavan et al.: 0.2)' },
  { path: 'isit.maxDimension', default: 3, min: 1, max: 10, integer: true, help: 'largest template dimension' },
  { path: 'isit.sampleSize', default: 20, min: 1, max: 10_000, integer: true, help: 'submissions to test a template' },
  { path: 'probe.roundSize', default: 10, min: 1, max: 1000, integer: true, help: 'keywords per probing round' },
  {
    path: 'probe.candidates',
    default: 300,
    min: 1,
    max: 100_000,
    integer: true,
    help: 'candidate keywords kept per round',
  },
  { path: 'scaling.target', default: 0.8, min: 0.01, max: 1, help: 'coverage the size sweep measures the cost of' },
  {
    path: 'scaling.budget',
    default: 20_000,
    min: 1,
    max: 10_000_000,
    integer: true,
    help: 'submissions per size-sweep run',
  },
  { path: 'crawl.delayMs', default: 0, min: 0, max: 60_000, help: 'gap between submissions to a host, ms' },
];

const NUMBERS = numberDefaults(DEEPWEB_NUMBERS) as {
  records: number;
  budget: number;
  every: number;
  isit: Pick<DeepwebConfig['isit'], 'tau' | 'maxDimension' | 'sampleSize'>;
  probe: DeepwebConfig['probe'];
  scaling: Pick<DeepwebConfig['scaling'], 'target' | 'budget'>;
  crawl: DeepwebConfig['crawl'];
};

export const DEFAULT_DEEPWEB: Omit<DeepwebConfig, 'name'> = {
  kind: 'deepweb',
  description: '',
  web: 'data/webs/deepweb.json',
  seeds: [1, 2, 3],
  records: NUMBERS.records,
  budget: NUMBERS.budget,
  every: NUMBERS.every,
  methods: [...DEEP_METHODS],
  isit: { ...NUMBERS.isit, typed: true, ranges: false },
  probe: NUMBERS.probe,
  keywords: { jobs: 'data/deepweb/seeds/jobs.txt', catalogue: 'data/deepweb/seeds/catalogue.txt' },
  dictionary: 'data/deepweb/dictionary.txt',
  generic: 'data/deepweb/generic-frequency.txt',
  scaling: { records: [1000, 3000, 10_000, 30_000, 100_000], ...NUMBERS.scaling, seeds: [1] },
  tauSweep: [0.1, 0.15, 0.2, 0.25, 0.3],
  crawl: NUMBERS.crawl,
  quick: {},
};

function bad(field: string, msg: string): never {
  throw new ExperimentConfigError(`${field}: ${msg}`);
}

/** A number in a list (seeds, sizes, tau values), checked as a table's field would be. */
function int(v: unknown, field: string, min: number, max: number): number {
  const why = numberProblem({ min, max, integer: true }, v);
  if (why) bad(field, why);
  return v as number;
}

function num(v: unknown, field: string, min: number, max: number): number {
  const why = numberProblem({ min, max }, v);
  if (why) bad(field, why);
  return v as number;
}

export function isDeepwebConfig(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { kind?: unknown }).kind === 'deepweb';
}

/** Validates a parsed config; with quick, applies its quick overrides first. */
export function resolveDeepweb(
  raw: Record<string, unknown>,
  name: string,
  opts: { quick?: boolean; seeds?: number } = {},
): DeepwebConfig {
  const known = new Set([...Object.keys(DEFAULT_DEEPWEB), 'name']);
  for (const k of Object.keys(raw)) if (!known.has(k) && !k.startsWith('_')) bad(k, 'unknown field');
  let c = { ...DEFAULT_DEEPWEB, ...raw, name } as DeepwebConfig;
  c.isit = { ...DEFAULT_DEEPWEB.isit, ...(raw.isit as object) };
  c.probe = { ...DEFAULT_DEEPWEB.probe, ...(raw.probe as object) };
  c.scaling = { ...DEFAULT_DEEPWEB.scaling, ...(raw.scaling as object) };
  c.crawl = { ...DEFAULT_DEEPWEB.crawl, ...(raw.crawl as object) };
  if (opts.quick) {
    const q = c.quick ?? {};
    c = {
      ...c,
      ...q,
      isit: { ...c.isit, ...q.isit },
      probe: { ...c.probe, ...q.probe },
      scaling: { ...c.scaling, ...q.scaling },
      crawl: { ...c.crawl, ...q.crawl },
    };
  }
  if (opts.seeds) c.seeds = Array.from({ length: opts.seeds }, (_, i) => i + 1);
  if (typeof c.web !== 'string' || !existsSync(resource(c.web))) bad('web', `no such file "${c.web}"`);
  if (!Array.isArray(c.seeds) || !c.seeds.length) bad('seeds', 'expected a non-empty list of seeds');
  c.seeds.forEach((s, i) => int(s, `seeds[${i}]`, 0, 2 ** 31));
  const numbers = checkNumbers(DEEPWEB_NUMBERS, c);
  if (numbers) throw new ExperimentConfigError(numbers);
  int(c.every, 'every', 1, c.budget);
  if (!Array.isArray(c.methods) || !c.methods.length) bad('methods', `expected a list of ${DEEP_METHODS.join(', ')}`);
  for (const m of c.methods)
    if (!DEEP_METHODS.includes(m)) bad('methods', `"${m}" is not one of ${DEEP_METHODS.join(', ')}`);
  for (const k of ['typed', 'ranges'] as const)
    if (typeof c.isit[k] !== 'boolean') bad(`isit.${k}`, `expected true or false, got ${JSON.stringify(c.isit[k])}`);
  for (const [k, f] of Object.entries(c.keywords))
    if (!existsSync(resource(f))) bad(`keywords.${k}`, `no such file "${f}"`);
  for (const k of ['dictionary', 'generic'] as const) {
    if (typeof c[k] !== 'string') bad(k, 'expected a file name or npm:PACKAGE');
    if (c[k].startsWith('npm:')) {
      try {
        wordPackage(c[k].slice(4));
      } catch (e) {
        bad(k, (e as Error).message);
      }
    } else if (!existsSync(resource(c[k]))) bad(k, `no such file "${c[k]}"`);
  }
  if (!Array.isArray(c.scaling.seeds) || !c.scaling.seeds.length)
    bad('scaling.seeds', 'expected a non-empty list of seeds');
  c.scaling.seeds.forEach((s, i) => int(s, `scaling.seeds[${i}]`, 0, 2 ** 31));
  c.scaling.records.forEach((r, i) => int(r, `scaling.records[${i}]`, 1000, 1_000_000));
  c.tauSweep.forEach((t, i) => num(t, `tauSweep[${i}]`, 0, 1));
  return c;
}

/** The words a package exports as an array (an-array-of-english-words), lowercase alphabetic only. */
function wordPackage(name: string): string[] {
  let words: unknown;
  try {
    words = createRequire(import.meta.url)(name);
  } catch {
    throw new Error(`package "${name}" is not installed`);
  }
  if (!Array.isArray(words) || !words.every((w) => typeof w === 'string'))
    throw new Error(`package "${name}" does not export an array of words`);
  return words.map((w: string) => w.toLowerCase()).filter((w) => /^[a-z]{2,}$/.test(w));
}

/** One word per line; '#' starts a comment; a tab ends the word (frequency lists). npm:PACKAGE: a word-list package. */
export function readWords(file: string): string[] {
  if (file.startsWith('npm:')) return wordPackage(file.slice(4));
  return readFileSync(resource(file), 'utf8')
    .split('\n')
    .map((l) => l.split('\t')[0].trim().toLowerCase())
    .filter((w) => w && !w.startsWith('#'));
}
