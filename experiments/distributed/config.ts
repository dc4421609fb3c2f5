/**
 * The distributed-crawling experiment's config ("kind": "distributed"): its fields, defaults
 * and validation, apart from the run so that the experiment CLI reads a config without loading
 * the cluster, the figures and the report.
 */
import { existsSync } from 'node:fs';
import { ASSIGNMENTS } from '../../crawler/distributed/partition.ts';
import { ExperimentConfigError, type FamilyConfig, nameField, quickField, resolveBySchema } from '../config-files.ts';
import { WORKER_STRATEGIES } from './cluster.ts';
import { CrawlSettingsSchema } from '../../crawler/settings.ts';
import { list, num, obj, oneOf, str, Type } from '../../lib/schema.ts';
import { resource } from '../../lib/paths.ts';

const NAME = '^[a-z0-9-]+$';
const processes = Type.Integer({ minimum: 1, maximum: 32 });

/**
 * The distributed experiment's config, declared once (lib/schema.ts): the type, the defaults, the
 * checks, `npm run experiment -- --help` and schemas/distributed.schema.json derive from it.
 */
export const DistributedSchema = obj({
  kind: Type.Literal('distributed', { description: 'this family: "distributed"' }),
  name: nameField(),
  description: str({ default: '', help: 'one line for the report' }),
  web: str({ default: 'data/webs/small.json', help: 'web config file' }),
  seeds: list(Type.Integer({ minimum: 0 }), {
    default: [1, 2],
    minItems: 1,
    expected: 'a list of whole numbers',
    help: 'web seeds',
  }),
  budget: num({ default: 3000, min: 1, integer: true, help: 'pages per run, over all processes' }),
  strategy: str({ default: 'bfs', help: 'the built-in strategy every process runs, or the name of `module`' }),
  /**
   * A strategy module (a plug-in, examples/strategies/) that each crawler process loads under the name
   * `strategy`; null: a built-in. Whichever process fetched a page scores its links, so a module that
   * keeps state across pages sees only its own process's pages.
   */
  module: Type.Union([Type.String(), Type.Null()], {
    default: null,
    description: 'a strategy module each process loads under the name `strategy` (null: a built-in)',
  }),
  timeScale: num({
    default: 1,
    min: 0,
    max: 10,
    help: "multiplies the web's geographic delays (shorter runs; ratios unchanged)",
  }),
  datacentres: list(
    obj({
      name: str({ pattern: NAME, expected: 'lowercase letters, digits and -', help: 'data centre name' }),
      region: str({
        pattern: NAME,
        expected: 'lowercase letters, digits and -',
        help: "its region (the web's geo.regions)",
      }),
      processes: Type.Integer({ minimum: 1, maximum: 32, description: 'crawler processes in it' }),
    }),
    {
      default: [
        { name: 'dc-us', region: 'us', processes: 2 },
        { name: 'dc-eu', region: 'eu', processes: 2 },
        { name: 'dc-asia', region: 'asia', processes: 2 },
      ],
      minItems: 1,
      help: 'data centres of the assignment comparison, with their processes',
    },
  ),
  assignments: list(oneOf(ASSIGNMENTS, { help: 'an assignment' }), {
    default: ['geo', 'hash', 'single'],
    help: 'URL assignments compared',
  }),
  scaling: list(processes, {
    default: [1, 2, 4, 8],
    help: 'processes of the scaling runs (one data centre: the first)',
  }),
  /** The crawl settings a process uses: the crawler's own fields and defaults (crawler/settings.ts). */
  crawl: obj({
    concurrency: CrawlSettingsSchema.properties.concurrency,
    delayMs: CrawlSettingsSchema.properties.delayMs,
    maxPagesPerHost: CrawlSettingsSchema.properties.maxPagesPerHost,
    maxCrawlDelaySec: CrawlSettingsSchema.properties.maxCrawlDelaySec,
  }),
  quick: quickField(),
});

export type DistributedConfig = FamilyConfig<typeof DistributedSchema>;

const bad = (f: string, m: string): never => {
  throw new ExperimentConfigError(`${f}: ${m}`);
};

export function isDistributedConfig(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { kind?: unknown }).kind === 'distributed';
}

export function resolveDistributed(
  raw: Record<string, unknown>,
  name: string,
  opts: { quick?: boolean; seeds?: number; overrides?: readonly string[] } = {},
): DistributedConfig {
  const c = resolveBySchema(DistributedSchema, raw, { name, ...opts }) as DistributedConfig;
  if (!existsSync(resource(c.web))) bad('web', `no such file "${c.web}"`);
  if (c.module !== null) {
    if (!existsSync(resource(c.module)))
      bad('module', `"${c.module}" is not a readable file (paths are from the working directory)`);
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(c.strategy)) bad('strategy', "a module's name must be letters, digits, - and _");
  } else if (!WORKER_STRATEGIES.includes(c.strategy))
    bad('strategy', `"${c.strategy}" is not one of ${WORKER_STRATEGIES.join(', ')}`);
  return c;
}
