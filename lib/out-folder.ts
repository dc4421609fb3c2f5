/**
 * An output folder a run writes into (a crawl's --out, an experiment's results folder): one run
 * at a time (a lock), a marker while it writes (INCOMPLETE), and write errors told apart from
 * bugs. Issue #68: two crawls on one --out tore the log, and the first of two experiments on one
 * folder removed the marker while the second still wrote.
 *
 * The lock is a file, `.lock`, created exclusively (O_EXCL) and holding the process id, host and
 * command of its holder. A lock whose process is gone (same host, no such pid) is stale and taken
 * over; one held by a live process, or by another host (which cannot be checked from here), is
 * refused with the holder named. A process may take the lock of a folder it already holds (a run
 * inside a run); it goes when the last holder releases it, or when the process exits.
 */
import { redactArg } from './secrets.ts';
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { OutFolderError } from './errors.ts';
import { dirname, join, resolve } from 'node:path';

export const LOCK_FILE = '.lock';
export const INCOMPLETE = 'INCOMPLETE';

/** Who holds a folder's lock. */
export interface LockHolder {
  pid: number;
  host: string;
  started: string;
  command: string;
}

/** File-system errors of writing (a full disk, a read-only or missing folder), not bugs. */
const WRITE_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EISDIR', 'EIO', 'EMFILE']);

export const isWriteError = (e: unknown): e is NodeJS.ErrnoException =>
  WRITE_ERRORS.has((e as NodeJS.ErrnoException)?.code ?? '');

/** What a write error means, in words (the errno's text for a reader who does not know errno). */
export function writeErrorText(e: NodeJS.ErrnoException): string {
  const why: Record<string, string> = {
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'the file system is read-only',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOTDIR: 'a file on the path is not a folder',
    EISDIR: 'a folder stands where a file was to be written',
    EIO: 'an input/output error',
    EMFILE: 'too many open files',
  };
  return `${why[e.code ?? ''] ?? e.message} (${e.code}${e.path ? `, ${e.path}` : ''})`;
}

/**
 * Creates `dir` (and its parents), or throws `fail(why)` saying why not. One level at a time from
 * the first existing ancestor, not Node's recursive mkdir: that reports a read-only parent as
 * ENOENT, and on /proc it never returns (Node 20).
 */
export function makeFolder(dir: string, fail: (message: string) => Error): void {
  const missing: string[] = [];
  let up = resolve(dir);
  while (!existsSync(up) && dirname(up) !== up) {
    missing.unshift(up);
    up = dirname(up);
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue; // made meanwhile by another process
      let why = isWriteError(e) ? writeErrorText(e) : (e as Error).message;
      try {
        accessSync(dirname(d), constants.W_OK);
      } catch {
        why = `${dirname(d)} is not writable`;
      }
      throw fail(`the folder cannot be created: ${why}`);
    }
  }
  if (!statSync(resolve(dir)).isDirectory()) throw fail('a file stands where the folder was to be');
}

const held = new Map<string, { count: number; token: string }>();
let exitHook = false;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // it exists, owned by someone else
  }
};

function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
    return Number.isInteger(h.pid) && typeof h.host === 'string' ? h : null;
  } catch {
    return null; // unreadable or torn: written by a process killed while writing it
  }
}

/** Releases every lock this process holds (at exit, whatever the path to it). */
function releaseAll(): void {
  for (const [file, h] of held) dropIfOurs(file, h.token);
  held.clear();
}

function dropIfOurs(file: string, token: string): void {
  try {
    if (readFileSync(file, 'utf8').includes(token)) rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

/**
 * Takes `dir`'s lock (creating the folder), or throws `busy(holder-text)` naming the process that
 * holds it, or `cannot(why)` if the folder cannot be created or written. Returns the release.
 * `what` says what the lock is for ("crawl", "experiment").
 */
export function lockFolder(
  dir: string,
  what: string,
  busy: (message: string) => Error,
  cannot: (why: string) => Error,
): () => void {
  makeFolder(dir, cannot);
  const file = resolve(join(dir, LOCK_FILE));
  const mine = held.get(file);
  if (mine) {
    mine.count++;
    return once(() => release(file));
  }
  const token = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const holder: LockHolder & { token: string } = {
    pid: process.pid,
    host: hostname(),
    started: new Date().toISOString(),
    command: `${what}: ${process.argv.slice(1).map(redactArg).join(' ')}`.slice(0, 500),
    token,
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, `${JSON.stringify(holder)}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2)
        throw cannot(isWriteError(e) ? writeErrorText(e) : (e as Error).message);
      const h = readHolder(file);
      if (h && (h.host !== holder.host || alive(h.pid)))
        throw busy(
          `${dir} is in use by process ${h.pid}${h.host !== holder.host ? ` on ${h.host}` : ''} since ${h.started} ` +
            `(${h.command}); wait for it to end or use another folder (if that process is gone, remove ` +
            `${join(dir, LOCK_FILE)})`,
        );
      // stale (its process is gone) or torn: moved aside atomically, so of two processes that
      // both found it stale one takes it over and the other tries again
      try {
        renameSync(file, `${file}.stale-${process.pid}`);
        rmSync(`${file}.stale-${process.pid}`, { force: true });
      } catch {
        // another process moved it first
      }
    }
  }
  held.set(file, { count: 1, token });
  if (!exitHook) {
    exitHook = true;
    process.on('exit', releaseAll);
  }
  return once(() => release(file));
}

function release(file: string): void {
  const h = held.get(file);
  if (!h) return;
  if (--h.count > 0) return;
  held.delete(file);
  dropIfOurs(file, h.token);
}

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    f();
  };
}

/**
 * Checks that a command can write `file` before it starts (issue #84: one check for every command
 * that writes): not a folder, its folder made (makeFolder) and writable. Throws OUT_ERR_IN_USE
 * (exit 2), one line naming the file; no errno left raw.
 */
export function checkOutputFile(file: string): void {
  const fail = (why: string): OutFolderError => new OutFolderError('OUT_ERR_IN_USE', `cannot write ${file}: ${why}`);
  const abs = resolve(file);
  if (existsSync(abs) && statSync(abs).isDirectory()) throw fail('a folder stands where the file was to be written');
  makeFolder(dirname(abs), (why) => fail(`${dirname(file)}: ${why}`));
  try {
    accessSync(dirname(abs), constants.W_OK);
  } catch {
    throw fail(`${dirname(abs)} is not writable`);
  }
}

/**
 * Writes one output file of a command whole (sim:truth's CSV, sim:fit's twin config): checked as
 * checkOutputFile does, written to a temporary file renamed over it (none left behind when the
 * write fails), and a write error (a full disk) one line naming the file (OUT_ERR_WRITE, exit 1).
 */
export function writeOutputFile(file: string, text: string | Buffer): void {
  checkOutputFile(file);
  const abs = resolve(file);
  const tmp = `${abs}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, abs);
  } catch (e) {
    rmSync(tmp, { force: true });
    if (isWriteError(e))
      throw new OutFolderError('OUT_ERR_WRITE', `cannot write ${file}: ${writeErrorText(e)}`, { cause: e });
    throw e;
  }
}
