/**
 * Deep-web experiment configs (experiments/configs/*.json with "kind": "deepweb"): which web,
 * seeds, database size, submission budget and methods; ISIT and probing parameters; the
 * database-size sweep and the tau sweep. Every field has a default; validation names the field.
 */
import { readJsonFile } from '../../lib/input.ts';
import { existsSync, readFileSync } from 'node:fs';
import { resource } from '../../lib/paths.ts';
import { createRequire } from 'node:module';
import { ExperimentConfigError, type FamilyConfig, nameField, quickField, resolveBySchema } from '../config-files.ts';
import { CrawlSettingsSchema } from '../../crawler/settings.ts';
import { bool, list, map, num, obj, oneOf, str, Type } from '../../lib/schema.ts';

export const DEEP_METHODS = ['isit', 'cartesian', 'probe-random', 'probe-generic', 'probe-adaptive'] as const;
export type DeepMethod = (typeof DEEP_METHODS)[number];

const seedList = (help: string, d: number[]) =>
  list(Type.Integer({ minimum: 0, maximum: 2 ** 31 }), { default: d, minItems: 1, help });

/**
 * A deep-web experiment config, declared once (lib/schema.ts): the type, the defaults, the checks,
 * `npm run experiment -- --help` and schemas/deepweb.schema.json derive from it.
 */
export const DeepwebSchema = obj({
  kind: Type.Literal('deepweb', { description: 'this family: "deepweb"' }),
  name: nameField(),
  description: str({ default: '', help: 'one line for the report' }),
  web: str({
    default: 'data/webs/deepweb.json',
    help: 'web config with deepweb.sites (their records are replaced by `records`)',
  }),
  seeds: seedList('web seeds', [1, 2, 3]),
  records: num({ default: 10_000, min: 1000, max: 1_000_000, integer: true, help: 'records per search site' }),
  budget: num({
    default: 2000,
    min: 1,
    max: 1_000_000,
    integer: true,
    help: "submissions per run (requests to a form's action, result pages included)",
  }),
  every: num({ default: 50, min: 1, max: 1_000_000, integer: true, help: 'submissions between rows (<= budget)' }),
  methods: list(oneOf(DEEP_METHODS, { help: 'a method' }), {
    default: [...DEEP_METHODS],
    minItems: 1,
    help: 'methods compared',
  }),
  isit: obj({
    tau: num({ default: 0.2, min: 0, max: 1, help: 'informativeness threshold (Madhavan et al.: 0.2)' }),
    maxDimension: num({ default: 3, min: 1, max: 10, integer: true, help: 'largest template dimension' }),
    sampleSize: num({ default: 20, min: 1, max: 10_000, integer: true, help: 'submissions to test a template' }),
    typed: bool({ default: true, help: 'type text inputs by probing (issue #20)' }),
    ranges: bool({ default: false, help: 'cover range pairs with intervals (issue #20)' }),
  }),
  probe: obj({
    roundSize: num({ default: 10, min: 1, max: 1000, integer: true, help: 'keywords per probing round' }),
    candidates: num({ default: 300, min: 1, max: 100_000, integer: true, help: 'candidate keywords kept per round' }),
  }),
  keywords: map(Type.String(), {
    default: { jobs: 'data/deepweb/seeds/jobs.txt', catalogue: 'data/deepweb/seeds/catalogue.txt' },
    help: "seed keywords per site kind (the user's hint): one word per line, # comments",
  }),
  dictionary: str({
    default: 'data/deepweb/dictionary.txt',
    help: "the random policy's word list: a file (one word per line) or npm:PACKAGE (exports an array of words)",
  }),
  generic: str({
    default: 'data/deepweb/generic-frequency.txt',
    help: "the generic policy's words, most frequent first",
  }),
  /** Database-size sweep: ISIT and Cartesian, submissions to reach `target` coverage (at most `budget`), per seed. */
  scaling: obj({
    records: list(Type.Integer({ minimum: 1000, maximum: 1_000_000 }), {
      default: [1000, 3000, 10_000, 30_000, 100_000],
      help: 'database sizes of the size sweep',
    }),
    target: num({ default: 0.8, min: 0.01, max: 1, help: 'coverage the size sweep measures the cost of' }),
    budget: num({ default: 20_000, min: 1, max: 10_000_000, integer: true, help: 'submissions per size-sweep run' }),
    seeds: seedList('seeds of the size sweep', [1]),
  }),
  tauSweep: list(Type.Number({ minimum: 0, maximum: 1 }), {
    default: [0.1, 0.15, 0.2, 0.25, 0.3],
    help: "ISIT's tau values tried on the first seed",
  }),
  /** The crawl settings a deep-web run sets: the crawler's own field and default (crawler/settings.ts). */
  crawl: obj({ delayMs: CrawlSettingsSchema.properties.delayMs }),
  quick: quickField(),
});

export type DeepwebConfig = FamilyConfig<typeof DeepwebSchema>;

function bad(field: string, msg: string): never {
  throw new ExperimentConfigError(`${field}: ${msg}`);
}

export function isDeepwebConfig(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { kind?: unknown }).kind === 'deepweb';
}

/** Validates a parsed config; with quick, applies its quick overrides first. */
export function resolveDeepweb(
  raw: Record<string, unknown>,
  name: string,
  opts: { quick?: boolean; seeds?: number; overrides?: readonly string[] } = {},
): DeepwebConfig {
  const c = resolveBySchema(DeepwebSchema, raw, { name, ...opts }) as DeepwebConfig;
  if (!existsSync(resource(c.web))) bad('web', `no such file "${c.web}"`);
  // the checks every config file gets, before anything runs (a device, a 7 MB file, not JSON)
  try {
    readJsonFile(resource(c.web), c.web);
  } catch (e) {
    bad('web', (e as Error).message);
  }
  if (c.every > c.budget) bad('every', `expected a whole number from 1 to budget (${c.budget}), got ${c.every}`);
  for (const [k, f] of Object.entries(c.keywords))
    if (!existsSync(resource(f))) bad(`keywords.${k}`, `no such file "${f}"`);
  for (const k of ['dictionary', 'generic'] as const) {
    if (c[k].startsWith('npm:')) {
      try {
        wordPackage(c[k].slice(4));
      } catch (e) {
        bad(k, (e as Error).message);
      }
    } else if (!existsSync(resource(c[k]))) bad(k, `no such file "${c[k]}"`);
  }
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
