import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { closureHash, importClosure } from './module-closure.ts';

const names = (urls: URL[], dir: string): string[] => urls.map((u) => u.pathname.slice(dir.length + 1));

describe('importClosure', () => {
  it('follows relative imports (static, type-only, dynamic, re-exports) through a cycle, not comments or packages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'closure-'));
    const put = (name: string, text: string): void => writeFileSync(join(dir, name), text);
    put(
      'a.ts',
      [
        "import { b } from './b.ts';",
        "import type { T } from './t.ts';",
        "import { x } from 'some-package';",
        '// a comment naming a file: import { y } from "./gone.ts";',
        ' * in a block comment: from "./gone.ts"',
        'export const a = async () => (await import("./d.ts")).d;',
      ].join('\n'),
    );
    put('b.ts', "import { a } from './a.ts';\nexport { c } from './c.ts';\nexport const b = 1;");
    put('c.ts', 'export const c = 1;');
    put('d.ts', 'export const d = 1;');
    put('t.ts', 'export type T = number;');
    const found = names(importClosure([pathToFileURL(join(dir, 'a.ts'))]), dir);
    expect(found).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts', 't.ts']);
    // a file a module imports changes the hash; so does its name
    const hash = (): string => {
      const h = createHash('sha256');
      closureHash(h, [pathToFileURL(join(dir, 'a.ts'))], pathToFileURL(`${dir}/`));
      return h.digest('hex');
    };
    const before = hash();
    put('c.ts', 'export const c = 2;');
    expect(hash()).not.toBe(before);
  });

  it("covers the web generator's files, which the hand-kept list of the model cache key missed", () => {
    const root = new URL('../', import.meta.url).pathname.replace(/\/$/, '');
    const web = names(importClosure([new URL('../sim/web.ts', import.meta.url)]), root);
    for (const f of ['sim/web-builder.ts', 'sim/web-links.ts', 'sim/web-background.ts', 'sim/config-schema.ts'])
      expect(web).toContain(f);
  });
});
