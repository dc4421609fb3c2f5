/**
 * Files a user names (configs, webs, archives, labels, keyword lists), checked before anything
 * starts: a regular file (not a folder, a device such as /dev/zero, or a FIFO, which a read would
 * never finish), of a bounded size; JSON of bounded depth, with finite numbers of a sane size and
 * strings of a bounded length. Each problem is one line naming the file and, in JSON, the field.
 */
import { readFileSync, statSync } from 'node:fs';
import { InputError } from './errors.ts';

/** The largest config file read (bytes): the shipped ones are under 20 KB. */
export const MAX_CONFIG_BYTES = 1 << 20;
/** Deepest nesting of objects and arrays in a config (the schemas need 4). */
export const MAX_JSON_DEPTH = 32;
/** Longest string in a config (paths, names, descriptions). */
export const MAX_JSON_STRING = 10_000;
/** Largest magnitude of a number in a config: beyond it integers are not exact (and no field needs it). */
export const MAX_JSON_NUMBER = Number.MAX_SAFE_INTEGER;

/** A named file that cannot be used: a usage error (exit 2) wherever it is caught. */
export { InputError } from './errors.ts';

/** What is wrong with `path` as a regular file of at most maxBytes, or null. */
export function fileProblem(path: string, maxBytes = Number.POSITIVE_INFINITY): string | null {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? 'error'})`;
  }
  if (st.isDirectory()) return 'a folder, not a file';
  if (!st.isFile()) return 'not a regular file (a device, FIFO or socket)';
  if (st.size > maxBytes) return `${st.size} bytes, over the limit of ${maxBytes}`;
  return null;
}

/** Where in a JSON value it breaks the limits (depth, numbers, strings), or null. Iterative: any depth is safe to check. */
export function jsonProblem(root: unknown): string | null {
  const stack: [unknown, string, number][] = [[root, '', 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    const at = path.length > 80 ? `${path.slice(0, 80)}...` : path || '(top)';
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${at}: ${v} is not a finite number`;
      if (Math.abs(v) > MAX_JSON_NUMBER) return `${at}: ${v} is too large (at most ${MAX_JSON_NUMBER})`;
    } else if (typeof v === 'string') {
      if (v.length > MAX_JSON_STRING) return `${at}: a string of ${v.length} characters (at most ${MAX_JSON_STRING})`;
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_JSON_DEPTH) return `${at}: nested deeper than ${MAX_JSON_DEPTH} levels`;
      if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`, depth + 1]);
      else
        for (const [k, x] of Object.entries(v).reverse()) {
          if (k.length > MAX_JSON_STRING) return `${at}: a key of ${k.length} characters`;
          stack.push([x, path ? `${path}.${k}` : k, depth + 1]);
        }
    }
  }
  return null;
}

/**
 * A JSON file as a value, checked (regular file, size, JSON, limits); an InputError naming the
 * file (as `shown`) and the field otherwise.
 */
export function readJsonFile(file: string, shown = file, maxBytes = MAX_CONFIG_BYTES): unknown {
  const why = fileProblem(file, maxBytes);
  if (why) throw new InputError(`${shown}: ${why}`);
  let v: unknown;
  // a byte-order mark is read past, as a CSV's is (an editor on Windows writes one)
  const text = withoutBom(readFileSync(file, 'utf8'));
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new InputError(`${shown}: not valid JSON (${(e as Error).message})`);
  }
  const bad = jsonProblem(v) ?? duplicatedKey(text);
  if (bad) throw new InputError(`${shown}: ${bad}`);
  return v;
}

/**
 * The first key an object of valid JSON text holds twice, said with where it is, or null. JSON.parse
 * keeps the last silently, so `"budget": 2000, ..., "budget": 20` ran on 20 without a word.
 */
export function duplicatedKey(text: string): string | null {
  // one frame per open object (its keys and where it is) or array (null keys, the index so far)
  const frames: { keys: Set<string> | null; path: string; index: number }[] = [];
  let key: string | null = null;
  const child = (): string => {
    const f = frames.at(-1);
    if (!f) return '';
    return f.keys ? (f.path ? `${f.path}.${key}` : String(key)) : `${f.path}[${f.index}]`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const f = frames.at(-1);
      let k = j + 1;
      while (k < text.length && /\s/.test(text[k])) k++;
      if (f?.keys && text[k] === ':') {
        key = JSON.parse(text.slice(i, j + 1)) as string;
        if (f.keys.has(key))
          return `the key "${key}" appears twice${f.path ? ` in ${f.path}` : ''} (JSON keeps the last)`;
        f.keys.add(key);
      }
      i = j;
    } else if (c === '{' || c === '[') {
      frames.push({ keys: c === '{' ? new Set() : null, path: child(), index: 0 });
    } else if (c === '}' || c === ']') frames.pop();
    else if (c === ',') {
      const f = frames.at(-1);
      if (f && !f.keys) f.index++;
    }
  }
  return null;
}

/**
 * A text file (a CSV, a list) checked as readJsonFile checks JSON: a regular file of at most
 * maxBytes, its byte-order mark read past; an InputError naming it (as `shown`) otherwise.
 */
export function readTextFile(file: string, shown = file, maxBytes = Number.POSITIVE_INFINITY): string {
  const why = fileProblem(file, maxBytes);
  if (why) throw new InputError(`${shown}: ${why}`);
  try {
    return withoutBom(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`${shown}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** A CSV's text without a UTF-8 byte-order mark (spreadsheets write one; it would become part of the first column's name). */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
