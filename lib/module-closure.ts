/**
 * The project files a module imports, transitively (relative specifiers only; packages are not
 * followed), in a fixed order: for a cache key that must change whenever any code it covers does.
 * A list of file names kept by hand missed the files a module was later split into (the web's
 * builder, its links and background sites were under no model's key until this walk).
 */
import { readFileSync } from 'node:fs';

// `from '<path>'`, `import '<path>'` and `import('<path>')` with a relative path, on a line that is
// not a comment; a type-only import counts too (safe: a key that changes more often than it must
// costs a retraining, one that changes less a stale model)
const RELATIVE = /\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"\n]+)['"]/g;
const COMMENT = /^\s*(?:\/\/|\/\*|\*)/;

function relativeImports(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) if (!COMMENT.test(line)) for (const m of line.matchAll(RELATIVE)) out.push(m[1]);
  return out;
}

export function importClosure(entries: readonly URL[]): URL[] {
  const seen = new Map<string, URL>();
  const stack = [...entries];
  while (stack.length) {
    const u = stack.pop()!;
    if (seen.has(u.href)) continue;
    seen.set(u.href, u);
    for (const spec of relativeImports(readFileSync(u, 'utf8'))) stack.push(new URL(spec, u));
  }
  return [...seen.values()].sort((a, b) => (a.href < b.href ? -1 : a.href > b.href ? 1 : 0));
}

/** A hash of every file in the closure of `entries`, with each file's path relative to `root` (a URL ending in /). */
export function closureHash(
  h: { update(data: string | Uint8Array): unknown },
  entries: readonly URL[],
  root: URL,
): void {
  for (const u of importClosure(entries)) {
    h.update(u.href.startsWith(root.href) ? u.href.slice(root.href.length) : u.href);
    h.update(readFileSync(u));
  }
}
