/**
 * The engine's side of the strategy contract (crawler/strategy.ts), enforced on every page: a
 * strategy that throws, answers with other than one finite number or null per link, or takes
 * longer than the per-page limit stops the crawl with a StrategyFailed error (exit 1) naming the
 * strategy and the page, instead of silently dropping links or ordering the frontier by NaN.
 *
 * Time: JavaScript cannot interrupt a synchronous call, so the limit is checked when onPage
 * returns; one that has not returned at twice the limit (a loop) is ended by a watchdog thread,
 * which sees how long the engine has been inside onPage through shared memory, prints one line on
 * stderr and kills the process (signal SIGKILL: the journal keeps every page before, for
 * --resume). A SIGTERM that arrives while a strategy runs therefore takes effect when it returns,
 * and at the latest at twice the limit (60 s by default). A plug-in's factory runs under the same
 * watchdog (watched), the models it asks the harness to train excepted (outside).
 */
import { writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ParsedLink } from './parser.ts';
import { type PageDecision, type PageView, type Strategy, StrategyFailed } from './strategy.ts';

/** What a score is, in words, for messages. */
function describe(v: unknown): string {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (typeof v === 'string') return `"${v.slice(0, 40)}" (a string)`;
  return v === undefined ? 'missing' : `${JSON.stringify(v)?.slice(0, 40) ?? typeof v} (a ${typeof v})`;
}

/** What is wrong with a decision for n links, or null. */
export function decisionProblem(d: unknown, n: number): string | null {
  if (typeof d !== 'object' || d === null) return `onPage returned ${describe(d)}, not { scores }`;
  const { scores, relevance, updates, readmit, reprioritise, stop } = d as PageDecision;
  if (!Array.isArray(scores)) return `scores is ${describe(scores)}, not an array`;
  if (scores.length !== n) return `${scores.length} scores for ${n} links (one per link: a number, or null to discard)`;
  for (let i = 0; i < n; i++) {
    const s = scores[i];
    if (s !== null && (typeof s !== 'number' || !Number.isFinite(s)))
      return `scores[${i}] is ${describe(s)} (expected a finite number, or null to discard the link)`;
  }
  if (relevance !== undefined && !(typeof relevance === 'number' && relevance >= 0 && relevance <= 1))
    return `relevance is ${describe(relevance)} (expected a number from 0 to 1)`;
  const listProblem = linksProblem('updates', updates) ?? linksProblem('readmit', readmit);
  if (listProblem) return listProblem;
  for (let i = 0; i < (readmit?.length ?? 0); i++) {
    const depth = readmit![i].depth;
    if (depth !== undefined && !(Number.isInteger(depth) && depth >= 0))
      return `readmit[${i}].depth is ${describe(depth)} (expected a whole number >= 0)`;
  }
  if (reprioritise !== undefined && typeof reprioritise !== 'boolean')
    return `reprioritise is ${describe(reprioritise)} (expected true or false)`;
  if (stop !== undefined && (typeof stop !== 'string' || !stop.trim()))
    return `stop is ${describe(stop)} (expected a reason, a non-empty string)`;
  return null;
}

/** What is wrong with a list of { url, score } (updates, readmit, reprioritise()'s answer), or null. */
export function linksProblem(what: string, list: unknown): string | null {
  if (list === undefined) return null;
  if (!Array.isArray(list)) return `${what} is ${describe(list)}, not an array`;
  for (let i = 0; i < list.length; i++) {
    const u = list[i] as { url?: unknown; score?: unknown } | null;
    if (typeof u?.url !== 'string' || typeof u.score !== 'number' || !Number.isFinite(u.score))
      return `${what}[${i}] is ${describe(u)} (expected { url, score } with a finite score)`;
  }
  return null;
}

/** Shared with the watchdog thread: [0] when the engine entered onPage (ms, 0: not inside), [1] the limit. */
let clock: Float64Array | null = null;
/** The page's URL, UTF-8, for the watchdog's line. */
let urlBytes: Uint8Array | null = null;
let nameBytes: Uint8Array | null = null;
const encoder = new TextEncoder();
const URL_BYTES = 2048;

/** The watchdog thread, started once per process by the first guarded call (unref'd: it keeps nothing alive). */
function startWatchdog(): void {
  const shared = new SharedArrayBuffer(16 + URL_BYTES + 256);
  clock = new Float64Array(shared, 0, 2);
  urlBytes = new Uint8Array(shared, 16, URL_BYTES);
  nameBytes = new Uint8Array(shared, 16 + URL_BYTES, 256);
  const source = `
    const { workerData } = require('node:worker_threads');
    const { writeSync } = require('node:fs');
    const clock = new Float64Array(workerData, 0, 2);
    const text = (b) => new TextDecoder().decode(b.slice(0, b.indexOf(0) < 0 ? b.length : b.indexOf(0)));
    setInterval(() => {
      const since = clock[0];
      if (since > 0 && Date.now() - since > 2 * clock[1]) {
        const url = text(new Uint8Array(workerData, 16, ${URL_BYTES}));
        const name = text(new Uint8Array(workerData, ${16 + URL_BYTES}, 256));
        writeSync(2, 'error: strategy "' + name + '" has not returned from ' + url + ' within ' + (2 * clock[1]) / 1000 +
          ' s (twice the crawl setting strategyTimeoutMs): the process is stopped\\n');
        process.kill(process.pid, 'SIGKILL');
      }
    }, 250);
  `;
  const w = new Worker(source, { eval: true, workerData: shared });
  w.unref();
  w.on('error', (e) => writeSync(2, `warning: the strategy watchdog stopped: ${e.message}\n`));
}

function enter(name: string, url: string, limitMs: number): void {
  if (!clock) startWatchdog();
  const n = encoder.encodeInto(url, urlBytes!).written;
  if (n < URL_BYTES) urlBytes![n] = 0;
  const m = encoder.encodeInto(name, nameBytes!).written;
  if (m < 256) nameBytes![m] = 0;
  clock![1] = limitMs;
  clock![0] = Date.now();
}

/**
 * Runs a strategy's code (`doing`: the page it reads, or "its factory") under the watchdog: one
 * that has not returned at twice `limitMs` ends the process with one line naming it. Time spent in
 * `outside` calls (training models the harness provides) does not count.
 */
export function watched<T>(name: string, doing: string, limitMs: number, f: () => T): T {
  enter(name, doing, limitMs);
  try {
    return f();
  } finally {
    clock![0] = 0;
  }
}

/** Runs `f` with the watchdog paused (the harness's own work inside a watched call), then resumes the clock. */
export function outside<T>(f: () => T): T {
  const since = clock?.[0] ?? 0;
  if (!since) return f();
  const spent = Date.now() - since;
  clock![0] = 0;
  try {
    return f();
  } finally {
    clock![0] = Date.now() - spent;
  }
}

/**
 * The strategy's decision on a page, checked: one finite number or null per candidate, within
 * the limit; anything else a StrategyFailed naming the strategy and the page.
 */
export function decide(
  strategy: Strategy,
  page: PageView,
  cands: readonly ParsedLink[],
  limitMs: number,
): PageDecision {
  const t0 = performance.now();
  let d: PageDecision;
  try {
    d = watched(strategy.name, page.url, limitMs, () => strategy.onPage(page, cands));
  } catch (e) {
    throw new StrategyFailed(`strategy "${strategy.name}" failed on ${page.url}: ${(e as Error)?.message ?? e}`, {
      cause: e,
    });
  }
  const ms = performance.now() - t0;
  if (ms > limitMs)
    throw new StrategyFailed(
      `strategy "${strategy.name}" took ${(ms / 1000).toFixed(1)} s on ${page.url}, over the limit of ${limitMs / 1000} s (crawl setting strategyTimeoutMs)`,
    );
  const why = decisionProblem(d, cands.length);
  if (why) throw new StrategyFailed(`strategy "${strategy.name}" on ${page.url}: ${why}`);
  return d;
}

/**
 * A start page's score from the strategy, checked as the scores of links are: a finite number
 * (a NaN would sit in the frontier's heap where no comparison orders it; issue #87).
 */
export function seedScoreOf(strategy: Strategy, url: string): number {
  const score: unknown = strategy.seedScore(url);
  if (typeof score !== 'number' || !Number.isFinite(score))
    throw new StrategyFailed(
      `strategy "${strategy.name}": seedScore(${url}) returned ${describe(score)} (expected a finite number)`,
    );
  return score;
}
