/**
 * Range inputs: a pair of inputs that bound one attribute (year from / year to, min / max
 * price). Madhavan et al. (VLDB 2008) single such correlated pairs out instead of crossing
 * both ends; this is our reading of it, stated in docs/deepweb.md. A pair is a candidate when its
 * names say so (x_from / x_to, min_x / max_x, low / high, start / end) or when both offer the
 * same numeric values. It is confirmed by probing: the whole range lists records, the inverted
 * range (lower end above the upper) lists none, and where the site reports totals the two
 * halves' totals add up to the whole's. A confirmed pair becomes one input whose values are
 * intervals, and a range template covers the domain with disjoint intervals: it starts from the
 * whole domain and halves an interval only while the site shows fewer records than it reports
 * (its top-k cap), so each query is as broad as the cap allows.
 */
import { bindableValues, type FormInput } from './forms.ts';
import type { ResultPage } from './results.ts';
import type { QueryResult, SurfaceSession } from './session.ts';
import { buildRequest } from './client.ts';

export interface RangePair {
  /** The bounded attribute, as the names give it ('' when they give none). */
  attribute: string;
  lo: string;
  hi: string;
  /** The ordered values both ends share. */
  values: string[];
  /** Why the pair was a candidate: 'names' or 'values'. */
  evidence: 'names' | 'values';
  confirmed: boolean;
  /** What the probes showed (for reports). */
  probe: string;
}

const ENDS: [string, string][] = [
  ['from', 'to'],
  ['min', 'max'],
  ['low', 'high'],
  ['lo', 'hi'],
  ['start', 'end'],
  ['begin', 'end'],
  ['since', 'until'],
  ['after', 'before'],
];

/** Name tokens: split at _, -, ., space and lower-to-upper case changes; lowercase. */
function tokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The attribute a pair of names bounds, if they differ only in one token that is a (low, high) pair. */
export function rangeByNames(a: string, b: string): string | null {
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.length !== tb.length || !ta.length) return null;
  const diff = ta.map((t, i) => (t === tb[i] ? -1 : i)).filter((i) => i >= 0);
  if (diff.length !== 1) return null;
  const i = diff[0];
  if (!ENDS.some(([lo, hi]) => ta[i] === lo && tb[i] === hi)) return null;
  return ta.filter((_, k) => k !== i).join('_');
}

/** The values both inputs offer, in order: numerically when all are numbers, else the lower end's option order. */
function sharedValues(a: FormInput, b: FormInput): string[] {
  const inB = new Set(bindableValues(b));
  const vals = bindableValues(a).filter((v) => inB.has(v));
  return vals.length && vals.every((v) => /^-?\d+(\.\d+)?$/.test(v))
    ? vals.sort((x, y) => Number(x) - Number(y))
    : vals;
}

/** Candidate pairs among a form's inputs with options (selects, radios), by names, then by shared numeric values. */
export function rangeCandidates(inputs: readonly FormInput[]): Omit<RangePair, 'confirmed' | 'probe'>[] {
  const withOptions = inputs.filter((i) => i.type === 'select' || i.type === 'radio');
  const out: Omit<RangePair, 'confirmed' | 'probe'>[] = [];
  const used = new Set<string>();
  for (const pass of ['names', 'values'] as const) {
    for (const a of withOptions) {
      for (const b of withOptions) {
        if (a === b || used.has(a.name) || used.has(b.name)) continue;
        const values = sharedValues(a, b);
        if (values.length < 2) continue;
        const attribute = rangeByNames(a.name, b.name);
        const numeric = values.every((v) => /^-?\d+(\.\d+)?$/.test(v));
        // by values alone only numbers, lower name first: an ordering is needed to call one end "low"
        if (
          pass === 'names'
            ? attribute === null
            : !numeric || a.name > b.name || values.length !== bindableValues(a).length
        )
          continue;
        out.push({ attribute: attribute ?? `${a.name}~${b.name}`, lo: a.name, hi: b.name, values, evidence: pass });
        used.add(a.name);
        used.add(b.name);
      }
    }
  }
  return out;
}

async function first(session: SurfaceSession, bound: Record<string, string>, tag: string): Promise<ResultPage | null> {
  return session.page(buildRequest(session.form, bound), Object.values(bound), tag, 1).catch(() => null);
}

/** Probes a candidate: whole range lists records, inverted lists none, halves' totals add up. */
export async function confirmRange(
  session: SurfaceSession,
  c: Omit<RangePair, 'confirmed' | 'probe'>,
): Promise<RangePair> {
  const v = c.values;
  const n = v.length;
  const m = Math.floor((n - 1) / 2);
  const tag = `range:${c.lo}+${c.hi}`;
  const whole = await first(session, { [c.lo]: v[0], [c.hi]: v[n - 1] }, tag);
  const inverted = await first(session, { [c.lo]: v[n - 1], [c.hi]: v[0] }, tag);
  const left = await first(session, { [c.lo]: v[0], [c.hi]: v[m] }, tag);
  const right = await first(session, { [c.lo]: v[m + 1], [c.hi]: v[n - 1] }, tag);
  const total = (p: ResultPage | null): number => (p?.cls === 'results' ? (p.total ?? p.records.length) : 0);
  const wholeOk = whole?.cls === 'results';
  const invertedOk = inverted !== null && inverted.cls !== 'results';
  const reported = [whole, left, right].every((p) => p?.cls !== 'results' || p.total !== null);
  const adds = !reported || total(left) + total(right) === total(whole);
  const probe =
    `whole ${whole?.cls ?? 'failed'} (${total(whole)}), inverted ` +
    `${inverted?.cls ?? 'failed'}, halves ${total(left)} + ` +
    `${total(right)}${reported ? '' : ' (no totals reported)'}`;
  return { ...c, confirmed: wholeOk && invertedOk && adds, probe };
}

/** The interval [a, b] (indices into pair.values) as input values. */
export function bindInterval(pair: RangePair, a: number, b: number): Record<string, string> {
  return { [pair.lo]: pair.values[a], [pair.hi]: pair.values[b] };
}

/**
 * Covers the pair's domain under fixed other values: the whole interval first, each interval
 * halved while the site shows fewer records than it reports, an interval without results
 * dropped. Returns the queries submitted.
 */
export async function coverRange(
  session: SurfaceSession,
  pair: RangePair,
  fixed: Record<string, string>,
  tag: string,
): Promise<number> {
  const stack: [number, number][] = [[0, pair.values.length - 1]];
  let queries = 0;
  while (stack.length && !session.exhausted) {
    const [a, b] = stack.pop()!;
    const r: QueryResult = await session.query({ ...fixed, ...bindInterval(pair, a, b) }, tag);
    queries++;
    const reported = r.first?.cls === 'results' ? r.first.total : null;
    const capped = reported !== null && r.records.length < reported && !session.exhausted;
    if (capped && a < b) {
      const m = (a + b) >> 1;
      // right half pushed first so the left is covered first (ascending order)
      stack.push([m + 1, b], [a, m]);
    }
  }
  return queries;
}
