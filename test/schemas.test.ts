/**
 * The config families' schemas (issue #37 item 4): the published JSON Schema files are what the
 * code declares, every shipped config names its schema, and TypeBox's own checker agrees with the
 * project's on the shipped configs and on broken ones.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { main as schemas, SCHEMAS } from '../experiments/cli/schemas.ts';
import { problemOf, withDefaults } from '../lib/schema.ts';
import { ROOT } from '../lib/paths.ts';
import { runMain } from '../lib/cli.ts';

const schemaOf = (name: string): TSchema => SCHEMAS.find((s) => s.name === name)!.schema;
const shippedConfigs = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: join(dir, f), raw: JSON.parse(readFileSync(join(ROOT, dir, f), 'utf8')) }));
const familyOf = (raw: { kind?: string }) => raw.kind ?? 'experiment';
/** A resolved config without its comments, as TypeBox's checker sees it. */
const plain = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (k, x) => (k.startsWith('_') || k === '$schema' ? undefined : x)));

describe('config schemas', () => {
  it('schemas/*.schema.json are what the code declares (npm run schemas -- --check)', async () => {
    let out = '';
    const code = await runMain(schemas, ['--check'], { out: (t) => void (out += t), err: (t) => void (out += t) });
    expect(out).toContain(`${SCHEMAS.length} schemas match the code`);
    expect(code).toBe(0);
  });

  it('every shipped config names its family schema, and both checkers accept it', () => {
    const configs = [...shippedConfigs('data/webs'), ...shippedConfigs('experiments/configs')];
    expect(configs.length).toBeGreaterThan(20);
    for (const { file, raw } of configs) {
      const family = file.startsWith('data/webs') ? 'web' : familyOf(raw);
      expect(resolve(ROOT, dirname(file), raw.$schema), file).toBe(join(ROOT, `schemas/${family}.schema.json`));
      const schema = schemaOf(family);
      const filled = withDefaults(schema, raw);
      expect(problemOf(schema, filled), file).toBeNull();
      expect(Value.Check(schema, plain(filled)), `${file}: ${[...Value.Errors(schema, plain(filled))][0]?.path}`).toBe(
        true,
      );
    }
  });

  it('a broken config is refused by both checkers, the project naming the field', () => {
    const cases: [string, object, string][] = [
      ['experiment', { budget: 5 }, 'budget: expected a whole number from 10 to 100,000,000, got 5'],
      ['experiment', { crawl: { delayMs: -1 } }, 'crawl.delayMs: expected a number from 0 to 3,600,000, got -1'],
      ['experiment', { strategies: [] }, 'strategies: expected a non-empty list, got 0'],
      ['experiment', { relevance: 'magic' }, 'relevance: "magic" is not one of paper, paper-url, keywords, learned'],
      ['experiment', { archive: { labels: 'x.csv', warc: [] } }, 'archive.warc: expected a list of existing WARC'],
      ['experiment', { future: { bins: 1 } }, 'future.bins: expected a whole number from 2 to 10, got 1'],
      ['web', { departments: [{ host: 'A.test', name: 'A' }] }, 'departments[0].host: expected a lowercase hostname'],
      ['web', { links: { mu: 2 } }, 'links.mu: expected a number from 0 to 1, got 2'],
      ['web', { background: { robots: { nope: 1 } } }, 'background.robots.nope: unknown field'],
      ['deepweb', { kind: 'deepweb', methods: ['isit', 'magic'] }, 'methods[1]: "magic" is not one of isit'],
      [
        'distributed',
        { kind: 'distributed', datacentres: [{ name: 'a', region: 'us', processes: 0 }] },
        'datacentres[0].processes',
      ],
    ];
    for (const [family, raw, message] of cases) {
      const schema = schemaOf(family);
      const filled = withDefaults(schema, raw);
      expect(problemOf(schema, filled)).toContain(message);
      expect(Value.Check(schema, plain(filled)), JSON.stringify(raw)).toBe(false);
    }
  });
});
