/**
 * What a queued job's code hash covers (issue #69): a strategy module's whole import closure, the
 * packages it imports by version, and Node's major version; a worker with another of any refuses.
 * The hash is what a worker compares, so these need no Redis (queue.timing.full.test.ts runs the worker).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../experiments/focused/config.ts';
import { codeVersionOf, NODE_MAJOR, refusal } from '../experiments/queue/code.ts';

/** A module importing a helper, a helper's helper (dynamically) and a package, in a folder of its own. */
function project(): { dir: string; write: (file: string, text: string) => void } {
  // inside the checkout (.cache/, ignored by git): a worker takes no module from outside it
  mkdirSync('.cache', { recursive: true });
  const dir = resolve(mkdtempSync(join('.cache', 'closure-')));
  const write = (file: string, text: string): void => {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  write(
    'mod.ts',
    "import { weight } from './helper.ts';\nimport pad from 'fake-pad';\nimport type { Strategy } from 'crawler-harness';\n" +
      "export default (): Strategy => ({ name: pad('mod'), seedScore: () => weight, onPage: () => ({ scores: [] }) });\n",
  );
  write('helper.ts', "export const weight = 1;\nexport const later = () => import('./deep.ts');\n");
  write('deep.ts', 'export const deep = 1;\n');
  write('node_modules/fake-pad/package.json', '{ "name": "fake-pad", "version": "1.0.0", "main": "index.js" }\n');
  write('node_modules/fake-pad/index.js', 'module.exports = (s) => s;\n');
  return { dir, write };
}

describe('the code a queued job carries', () => {
  it('covers a module, what it imports (statically or dynamically) and the versions of its packages', async () => {
    const { dir, write } = project();
    const cfg = loadExperiment({
      web: 'data/webs/small.json',
      strategies: ['bfs', { name: 'mod', module: join(dir, 'mod.ts') }],
    });
    const hash = async (): Promise<string> => Object.values((await codeVersionOf(cfg)).files)[0];
    const first = await hash();
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    const submitted = await codeVersionOf(cfg);
    expect(submitted.node).toBe(NODE_MAJOR);
    expect(await refusal(submitted, cfg)).toBeNull();
    // one byte in a helper the module imports: another hash, and a worker with it refuses
    write('helper.ts', "export const weight = 2;\nexport const later = () => import('./deep.ts');\n");
    expect(await hash()).not.toBe(first);
    expect(await refusal(submitted, cfg)).toMatch(/^refused: .*mod\.ts differs .*a file it imports/);
    write('helper.ts', "export const weight = 1;\nexport const later = () => import('./deep.ts');\n");
    expect(await hash()).toBe(first);
    // a file reached only through a dynamic import, and a package's version
    write('deep.ts', 'export const deep = 2;\n');
    const deeper = await hash();
    expect(deeper).not.toBe(first);
    write('node_modules/fake-pad/package.json', '{ "name": "fake-pad", "version": "1.0.1", "main": "index.js" }\n');
    expect(await hash()).not.toBe(deeper);
    // the harness it imports by name is the tree's hash, not a file of the closure: unchanged by this
    expect((await codeVersionOf(cfg)).tree).toBe(submitted.tree);
  });

  it('refuses a job submitted from another major version of Node', async () => {
    const cfg = loadExperiment({ web: 'data/webs/small.json', strategies: ['bfs'] });
    const submitted = { ...(await codeVersionOf(cfg)), node: String(Number(NODE_MAJOR) + 2) };
    expect(await refusal(submitted, cfg)).toMatch(
      /^refused: the job was submitted from Node \d+, this worker runs Node \d+/,
    );
  });
});
