/**
 * A results folder's config.json reruns as is (issue #53 item 5), for every family and every
 * shipped config, with and without --quick: the file a run writes (the family's configFile through
 * configFileText, what every family's writer calls) is resolved the way `npm run experiment --
 * DIR/config.json` resolves it, and gives the config the run had. Runs themselves are
 * deterministic (the regressions rerun a written focused config to identical CSVs), so the same
 * config is the same experiment. The deep-web config.json once carried a "rerun" field its own
 * loader refused.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFileText } from '../experiments/config-files.ts';
import { defaultOut } from '../experiments/family-contract.ts';
import { FAMILIES, familyOf } from '../experiments/families.ts';
import { listExperiments, readExperimentJson } from '../experiments/focused/config.ts';

/** A config without its comments ("_" keys), for comparison. */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x) => (k.startsWith('_') ? undefined : x)));

describe('written configs rerun as is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rerun-'));
  const seen = new Set<string>();
  for (const name of listExperiments())
    for (const quick of [false, true])
      it(`${name}${quick ? ' --quick' : ''}`, () => {
        const { raw } = readExperimentJson(name);
        const family = familyOf(raw);
        seen.add(family.id);
        const cfg = family.resolve(raw as Record<string, unknown>, name, { asked: name, quick, seeds: undefined });
        const folder = join(dir, `${name}${quick ? '-quick' : ''}`);
        const file = join(folder, 'config.json');
        mkdirSync(folder, { recursive: true });
        writeFileSync(file, configFileText(`npm run experiment -- ${name}`, family.configFile(cfg)));
        // as the CLI reads it: by path, the family chosen from the file, no --quick
        const again = readExperimentJson(file);
        const rerunFamily = familyOf(again.raw);
        expect(rerunFamily.id).toBe(family.id);
        const rerun = rerunFamily.resolve(again.raw as Record<string, unknown>, again.name, {
          asked: file,
          quick: false,
          seeds: undefined,
        });
        expect(plain({ ...(rerun as object), quick: {} })).toEqual(plain({ ...(cfg as object), quick: {} }));
        // and it writes back into the folder it came from
        expect(defaultOut((cfg as { name: string }).name, { asked: file, out: undefined, quick: false })).toBe(folder);
      });
  it('no shipped config is claimed by two families but the fallback', () => {
    for (const name of listExperiments()) {
      const { raw } = readExperimentJson(name);
      expect(
        FAMILIES.filter((f) => !f.fallback && f.claims(raw)).map((f) => f.id),
        name,
      ).toHaveLength(familyOf(raw).fallback ? 0 : 1);
    }
  });
  it('covered every family', () => {
    expect([...seen].sort()).toEqual(FAMILIES.map((f) => f.id).sort());
  });
});
