/**
 * npm run schemas [-- --check] [--out DIR]
 * Writes the published JSON Schema of every config family (schemas/NAME.schema.json), derived
 * from the schemas declared in code (lib/schema.ts): a config that names its file as "$schema"
 * is completed and checked by editors. --check writes nothing and fails (exit 1) when a file
 * differs from what the code declares; the test suite runs it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { CrawlSettingsSchema } from '../../crawler/index.ts';
import { type CliIo, failed, parseCommand, runAsProcess } from '../../lib/cli.ts';
import { shipped } from '../../lib/paths.ts';
import { publishedSchema } from '../../lib/schema.ts';
import { WebSchema } from '../../sim/config.ts';
import { FAMILIES } from '../families.ts';

/** Every published schema: its file name, the schema and what it describes (the web's, every family's, the crawl settings'). */
export const SCHEMAS: { name: string; schema: TSchema; title: string; description: string }[] = [
  {
    name: 'web',
    schema: WebSchema,
    title: 'Synthetic web config',
    description:
      'A generated web (data/webs/*.json): every field may be left out and takes its default (sim/config.ts).',
  },
  // each family's, in the registry's order from the default (experiments/family-contract.ts `schema`)
  ...[...FAMILIES].reverse().flatMap((f) => (f.schema ? [f.schema] : [])),
  {
    name: 'crawl',
    schema: CrawlSettingsSchema,
    title: 'Crawl settings',
    description:
      'The crawl engine\'s settings (crawler/settings.ts); experiment configs set some of them in their "crawl" section.',
  },
];

/** The text of schemas/NAME.schema.json. */
export function schemaText(s: (typeof SCHEMAS)[number]): string {
  const id = `https://crawler-harness.invalid/schemas/${s.name}.schema.json`;
  return `${JSON.stringify(publishedSchema(s.schema, { id, title: s.title, description: s.description }), null, 2)}\n`;
}

const USAGE = `Usage: npm run schemas [-- --check] [--out DIR]

Writes schemas/NAME.schema.json (${SCHEMAS.map((s) => s.name).join(', ')}) from the schemas declared in
code. --check writes nothing and exits 1 if a file differs (run npm run schemas to update them).
`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, { check: { type: 'boolean' }, out: { type: 'string' } });
  if (!p) return 0;
  const dir = p.values.out ?? shipped('schemas');
  const stale: string[] = [];
  if (!p.values.check) mkdirSync(dir, { recursive: true });
  for (const s of SCHEMAS) {
    const file = join(dir, `${s.name}.schema.json`);
    const text = schemaText(s);
    if (p.values.check) {
      if (!existsSync(file) || readFileSync(file, 'utf8') !== text) stale.push(file);
    } else {
      writeFileSync(file, text);
      io.out(`wrote ${file}\n`);
    }
  }
  if (stale.length) failed(`${stale.join(', ')}: not what the code declares (run npm run schemas)`);
  if (p.values.check) io.out(`${SCHEMAS.length} schemas match the code\n`);
  return 0;
}

await runAsProcess(main, import.meta);
