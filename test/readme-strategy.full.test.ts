/**
 * The README's smallest strategy is the contract as the code checks it (issue #89: a plug-in
 * written from the README's words once stopped at page 1, "scores is missing, not an array"): the
 * block is taken from README.md as it stands, type-checked against the package's types, and crawls.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { scaled } from './speed.ts';

// inside the clone: 'crawler-harness' resolves to the sources, as for examples/strategies/
const dir = join('.cache', `readme-strategy-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README's TypeScript block that default-exports a strategy. */
function readmeStrategy(): string {
  const blocks = [...readFileSync('README.md', 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  const mine = blocks.filter((b) => /export default/.test(b) && /onPage/.test(b));
  expect(mine).toHaveLength(1);
  return mine[0];
}

describe("the README's strategy", () => {
  it(
    'type-checks against the package and crawls',
    async () => {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'readme-example.ts');
      writeFileSync(file, readmeStrategy());
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: '../../tsconfig.json',
          include: ['readme-example.ts'],
          compilerOptions: { paths: { 'crawler-harness': ['../../index.ts'] } },
        }),
      );
      const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', join(dir, 'tsconfig.json')], {
        encoding: 'utf8',
      });
      expect(tsc.status, `${tsc.stdout}${tsc.stderr}`).toBe(0);
      const out = mkdtempSync(join(tmpdir(), 'readme-strategy-'));
      const crawl = await runCliInProcess('experiments/cli/crawl.ts', [
        '--web',
        'data/webs/small.json',
        '--strategy',
        file,
        '--max-pages',
        '20',
        '--delay-ms',
        '0',
        '--out',
        out,
      ]);
      expect(crawl.code, crawl.stderr).toBe(0);
      expect(readFileSync(join(out, 'crawl.jsonl'), 'utf8').trim().split('\n')).toHaveLength(20);
    },
    scaled(120_000),
  );
});
