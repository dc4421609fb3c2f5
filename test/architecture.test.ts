import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedTimeLimits } from './speed.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}
const imports = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);

describe('dependencies run one way', () => {
  it('crawler/ never imports sim/ (a crawler cannot see ground truth)', () => {
    for (const f of files('crawler')) for (const i of imports(f)) expect(i, f).not.toMatch(/(^|\/)sim\//);
  });
  it('sim/ never imports crawler/ or experiments/', () => {
    for (const f of files('sim')) for (const i of imports(f)) expect(i, f).not.toMatch(/(^|\/)(crawler|experiments)\//);
  });
  it('lib/, the toolbox both sides share, imports none of them (nor sim/ crawler/ experiments/ by a path)', () => {
    const lib = files('lib');
    expect(lib.length).toBeGreaterThan(0);
    for (const f of lib) for (const i of imports(f)) expect(i, f).not.toMatch(/(^|\/)(crawler|sim|experiments)\//);
  });
  it('the crawl core never imports its focused strategies (crawler/focused/ plugs into the core, not the reverse)', () => {
    const core = readdirSync('crawler')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => join('crawler', f));
    expect(core.length).toBeGreaterThan(10);
    for (const f of core) for (const i of imports(f)) expect(i, f).not.toMatch(/(^|\/)focused\//);
  });
  it('experiments/, examples/ and the package face (index.ts, bin/) use the crawler through its public index files only', () => {
    // and the names a config is checked against (crawler/settings.ts: schema, defaults, help; the
    // distributed assignments), which a command's --help reads without loading the engine
    const surface = /(^|\/)crawler\/(((focused|deepweb|distributed)\/)?index|settings|distributed\/partition)\.ts$/;
    let seen = 0;
    for (const f of [...files('experiments'), ...files('examples'), ...files('bin'), 'index.ts']) {
      for (const i of imports(f).filter((x) => /(^|\/)crawler\//.test(x))) {
        seen++;
        expect(i, f).toMatch(surface);
      }
    }
    expect(seen).toBeGreaterThan(10);
  });
  it(
    'experiment families stand side by side over a shared core: the core imports no family ' +
      'but through the registry, and a family imports another only if it builds on it',
    async () => {
      // the families and commands are the registry's (experiments/registry.ts): a line and a folder
      // each, whatever it holds, and nothing else there
      const registry = readFileSync('experiments/registry.ts', 'utf8').replace(/\/\*\*[\s\S]*?\*\/\n/, '');
      const lines = registry.trim().split('\n');
      const folders = lines.flatMap(
        (l) => /^export \{ \w+ \} from '\.\/([\w-]+)\/(?:family|command)\.ts';$/.exec(l)?.[1] ?? [],
      );
      expect(folders, registry).toHaveLength(lines.length);
      const { COMMANDS, FAMILIES } = await import('../experiments/families.ts');
      expect(folders).toHaveLength(FAMILIES.length + COMMANDS.length);
      expect(folders).toContain('twin');
      // one fallback family, asked last: the others' claims are by their own fields
      expect(FAMILIES.filter((f) => f.fallback).map((f) => f.id)).toEqual(['focused']);
      expect(FAMILIES.at(-1)?.id).toBe('focused');
      // the folder an import of `file` lands in below experiments/ (null: the core, or outside)
      const folderOf = (file: string, spec: string): string | null => {
        if (!spec.startsWith('.')) return null;
        const parts = relative('experiments', resolve(dirname(file), spec)).split(sep);
        return parts[0] === '..' || parts.length < 2 ? null : parts[0];
      };
      const core = readdirSync('experiments')
        .filter((f) => f.endsWith('.ts') && f !== 'families.ts' && f !== 'registry.ts')
        .map((f) => join('experiments', f));
      expect(core.length).toBeGreaterThan(5);
      for (const f of core)
        for (const i of imports(f)) expect(folders, `${f} imports ${i}`).not.toContain(folderOf(f, i));
      // the sweep runs focused experiments over a grid of webs (a search measures its closest web as
      // the twin measures an archive); the twin validation runs a focused archive experiment and its twins
      const buildsOn: Record<string, string[]> = { sweep: ['focused', 'twin'], twin: ['focused'] };
      let checked = 0;
      for (const me of folders)
        for (const f of files(join('experiments', me))) {
          checked++;
          for (const i of imports(f)) {
            const other = folderOf(f, i);
            if (other && other !== me && folders.includes(other))
              expect(buildsOn[me] ?? [], `${f} imports ${i}`).toContain(other);
          }
        }
      expect(checked).toBeGreaterThan(20);
    },
  );
});

describe("the contributors' page (docs/contributing.md)", () => {
  const page = readFileSync('docs/contributing.md', 'utf8');
  it('names only files that exist, and a room for every top-level folder of code', () => {
    const paths = [...page.matchAll(/`([\w./-]+\/[\w./-]+\.(?:ts|md|json))`/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !existsSync(p))).toEqual([]);
    for (const room of ['crawler/', 'sim/', 'lib/', 'experiments/', 'bin/', 'test/', 'bench'])
      expect(page, room).toContain(room);
  });
});

describe('sizes a reader can hold', () => {
  // issue #54: no file over 500 lines outside generated data and declarations (functions over
  // 100 lines are biome's: noExcessiveLinesPerFunction in biome.jsonc)
  const LIMIT = 500;
  it(`no source, test or script file over ${LIMIT} lines`, () => {
    const all = ['lib', 'sim', 'crawler', 'experiments', 'test', 'bench', 'examples', 'bin'].flatMap(files);
    expect(all.length).toBeGreaterThan(100);
    const over = all
      .filter((f) => !f.endsWith('.d.ts') && !f.includes(`${sep}fixtures${sep}`))
      .map((f) => `${f.split(sep).join('/')}: ${readFileSync(f, 'utf8').split('\n').length - 1} lines`)
      .filter((x) => Number(x.split(': ')[1].split(' ')[0]) > LIMIT);
    expect(over).toEqual([]);
  });
  it('no line over 160 characters (biome formats at 120 but leaves long literals whole)', () => {
    const all = ['lib', 'sim', 'crawler', 'experiments', 'test', 'bench', 'examples', 'bin'].flatMap(files);
    const long = all
      .filter((f) => !f.includes(`${sep}fixtures${sep}`))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .flatMap((l, i) => (l.length > 160 ? [`${f.split(sep).join('/')}:${i + 1}: ${l.length}`] : [])),
      );
    expect(long).toEqual([]);
  });
  it('no array appended by spreading it into push(): past ~120,000 elements it throws (lib/arrays.ts append)', () => {
    // a run's curve rows, an archive's warnings, a hub's anchor words grow with the run (issue #84)
    const spread = ['lib', 'sim', 'crawler', 'experiments', 'bench', 'examples', 'bin']
      .flatMap(files)
      .filter((f) => !f.endsWith('.test.ts'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .flatMap((l, i) =>
            /\.push\(\s*\.\.\./.test(l) && !/^\s*(\*|\/\/)/.test(l) ? [`${f.split(sep).join('/')}:${i + 1}`] : [],
          ),
      );
    expect(spread).toEqual([]);
  });
  it('no fixed time limit in a test file: limits are scaled(ms) (test/speed.ts), or a slower machine fails them', () => {
    // the rule itself, on the shapes it must catch and the one it must let through (written so
    // that this file's own lines do not read as limits)
    const t = 'timeout';
    expect(fixedTimeLimits(`it('x', { ${t}: 60_000 }, async () => {});`)).toEqual([
      `1: it('x', { ${t}: 60_000 }, async () => {});`,
    ]);
    expect(
      fixedTimeLimits(
        `vi.setConfig({ testTimeout: ${5000} });\n  }, ${'60_000'});\nafterAll(() => x(), ${'180_000'});`,
      ),
    ).toHaveLength(3);
    expect(fixedTimeLimits(`it('x', { ${t}: scaled(60_000) }, async () => {});`)).toEqual([]);
    const fixed = ['lib', 'sim', 'crawler', 'experiments', 'test', 'bench', 'examples', 'bin']
      .flatMap(files)
      .filter((f) => f.endsWith('.test.ts'))
      .flatMap((f) => fixedTimeLimits(readFileSync(f, 'utf8')).map((x) => `${f.split(sep).join('/')}:${x}`));
    expect(fixed).toEqual([]);
  });
  it('the README, the front door, within 250 lines (the rest belongs in docs/)', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length - 1).toBeLessThanOrEqual(250);
  });
});

describe('registries', () => {
  it('list their entries by name, in the same order under vitest and under Node', async () => {
    // a module namespace's values come in declaration order under vitest and sorted by export name
    // under Node: an order taken from Object.values differed between the tests and real use
    const { RULES } = await import('../crawler/politeness/index.ts');
    const { COMMANDS, FAMILIES } = await import('../experiments/families.ts');
    const here = {
      rules: RULES.map((r) => r.name),
      families: FAMILIES.map((f) => f.id),
      commands: COMMANDS.map((c) => c.verb),
    };
    const sorted = (xs: string[]) => [...xs].sort();
    expect(here.rules).toEqual(sorted(here.rules));
    expect(here.commands).toEqual(sorted(here.commands));
    expect(here.families).toEqual([...sorted(here.families.slice(0, -1)), 'focused']);
    const script = `const { RULES } = await import('./crawler/politeness/index.ts');
      const { COMMANDS, FAMILIES } = await import('./experiments/families.ts');
      console.log(JSON.stringify({ rules: RULES.map((r) => r.name), families: FAMILIES.map((f) => f.id),
        commands: COMMANDS.map((c) => c.verb) }));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual(here);
  });
});

describe('no dead code at the seams', () => {
  it('every exported declaration is used: by another file, or in its own besides its export', () => {
    // an export nothing imports is a promise no one keeps (five were found: issue #65); the
    // package's face re-exports what it offers, so a public name counts as used there
    const sources = ['lib', 'sim', 'crawler', 'experiments', 'bin', 'bench', 'examples', 'data', 'test']
      .flatMap((d) => files(d))
      .concat(['index.ts', 'vitest.config.ts']);
    const text = new Map(sources.map((f) => [f, readFileSync(f, 'utf8')]));
    const dead: string[] = [];
    for (const f of sources.filter((x) => !x.endsWith('.test.ts') && !x.startsWith(`test${sep}`))) {
      for (const m of text
        .get(f)!
        .matchAll(/^export (?:async )?(?:function|const|class|let|interface|type|enum) (\w+)/gm)) {
        const word = new RegExp(`\\b${m[1]}\\b`, 'g');
        const used = [...text].some(([g, t]) => (g === f ? (t.match(word)?.length ?? 0) > 1 : word.test(t)));
        if (!used) dead.push(`${f}: ${m[1]}`);
      }
    }
    expect(dead).toEqual([]);
  });
});
