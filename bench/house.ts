/**
 * npm run bench:house: the measures issue #88 asks of the code's shape, so that a clean-up says
 * what it changed. Lines of source (and of tests apart), functions of 80 lines or more by span
 * (from the line of their head to their closing brace, as a reader meets them; biome's
 * noExcessiveLinesPerFunction counts lines of code instead), files of more than 400 lines, file
 * names two modules share (index.ts aside), and import circles: runtime imports apart from those
 * through type-only imports (erased, but a reader still follows them). Source is every .ts file
 * of crawler/, experiments/, sim/, lib/, bin/ and index.ts, tests (*.test.ts) and declarations
 * aside. The parse is oxc's (rolldown/parseAst, the parser under vite), no type checking.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import { parseAst } from 'rolldown/parseAst';

const ROOTS = ['crawler', 'experiments', 'sim', 'lib', 'bin'];
const LONG_FUNCTION = 80;
const LONG_FILE = 400;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

const all = [...ROOTS.flatMap(walk), 'index.ts'];
const sources = all.filter((f) => !f.endsWith('.test.ts'));
const tests = [...all.filter((f) => f.endsWith('.test.ts')), ...walk('test')];
const text = new Map(sources.map((f) => [f, readFileSync(f, 'utf8')]));
const lines = (s: string): number => s.split('\n').length - (s.endsWith('\n') ? 1 : 0);
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

type Node = { type?: string; start?: number; end?: number; [k: string]: unknown };

/** Functions of `file` with their name (as a reader would call them) and span in lines. */
function functionsOf(file: string, src: string): { name: string; span: number }[] {
  const starts = [0];
  for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === 10) starts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const out: { name: string; span: number }[] = [];
  const visit = (n: unknown, name: string): void => {
    if (Array.isArray(n)) {
      for (const x of n) visit(x, name);
      return;
    }
    if (!n || typeof n !== 'object') return;
    const node = n as Node;
    let here = name;
    if (node.type === 'VariableDeclarator' || node.type === 'PropertyDefinition' || node.type === 'MethodDefinition')
      here = String((node.id as Node | undefined)?.name ?? (node.key as Node | undefined)?.name ?? name);
    if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration')
      here = String((node.id as Node | undefined)?.name ?? name);
    const isFunction = /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(node.type ?? '');
    if (isFunction && node.start !== undefined && node.end !== undefined) {
      const span = lineOf(node.end - 1) - lineOf(node.start) + 1;
      out.push({ name: `${file}: ${here || '(anonymous)'}`, span });
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'type' && v && typeof v === 'object') visit(v, here);
  };
  visit(parseAst(src, { lang: 'ts' }, file), '');
  return out;
}

/** Relative imports of a file: [target, type-only]. */
function importsOf(file: string, src: string): [string, boolean][] {
  const out: [string, boolean][] = [];
  for (const m of src.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+['"](\.[^'"]+)['"]/gm)) {
    const names = /\{([^}]*)\}/.exec(m[2])?.[1];
    const allTypes =
      !!m[1] ||
      (names !== undefined &&
        !/^\s*[A-Za-z_*]/.test(m[2].replace(/\{[^}]*\}/, '')) &&
        names
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
          .every((x) => x.startsWith('type ')));
    out.push([normalize(join(dirname(file), m[3])), allTypes]);
  }
  return out;
}

/** Strongly connected groups of two or more modules (Tarjan), each sorted. */
function circles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        on.delete(w);
        group.push(w);
        if (w === v) break;
      }
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

const functions = sources.flatMap((f) => functionsOf(f, text.get(f)!));
const long = functions.filter((f) => f.span >= LONG_FUNCTION).sort((a, b) => b.span - a.span);
const bigFiles = sources
  .map((f) => ({ f, n: lines(text.get(f)!) }))
  .filter((x) => x.n > LONG_FILE)
  .sort((a, b) => b.n - a.n);
const byName = new Map<string, string[]>();
for (const f of sources)
  if (basename(f) !== 'index.ts') byName.set(basename(f), [...(byName.get(basename(f)) ?? []), f]);
const repeated = [...byName].filter(([, fs]) => fs.length > 1).sort((a, b) => b[1].length - a[1].length);
const known = new Set(sources.map((f) => normalize(f)));
const runtime = new Map<string, string[]>();
const withTypes = new Map<string, string[]>();
for (const f of sources) {
  const deps = importsOf(f, text.get(f)!).filter(([t]) => known.has(t));
  runtime.set(
    f,
    deps.filter(([, typeOnly]) => !typeOnly).map(([t]) => t),
  );
  withTypes.set(
    f,
    deps.map(([t]) => t),
  );
}
const runtimeCircles = circles(runtime);
const typeCircles = circles(withTypes);

const head = ((): string => {
  try {
    return readFileSync(join('.git', 'HEAD'), 'utf8').trim();
  } catch {
    return '';
  }
})();
console.log(`bench:house on ${relative('..', process.cwd())} (${head})\n`);
console.log(`source: ${sources.length} files, ${sum(sources.map((f) => lines(text.get(f)!)))} lines`);
console.log(`tests:  ${tests.length} files, ${sum(tests.map((f) => lines(readFileSync(f, 'utf8'))))} lines`);
console.log(`\nfunctions of ${LONG_FUNCTION} lines or more by span: ${long.length}`);
for (const f of long) console.log(`  ${String(f.span).padStart(4)}  ${f.name}`);
console.log(`\nfiles over ${LONG_FILE} lines: ${bigFiles.length}`);
for (const x of bigFiles) console.log(`  ${String(x.n).padStart(4)}  ${x.f}`);
console.log(`\nfile names two or more modules share (index.ts aside): ${repeated.length}`);
for (const [name, fs] of repeated) console.log(`  ${name}: ${fs.join(', ')}`);
console.log(`\nimport circles, runtime imports: ${runtimeCircles.length}`);
for (const c of runtimeCircles) console.log(`  ${c.join(' <-> ')}`);
console.log(`import circles, type-only imports counted too: ${typeCircles.length}`);
for (const c of typeCircles) console.log(`  ${c.join(' <-> ')}`);
