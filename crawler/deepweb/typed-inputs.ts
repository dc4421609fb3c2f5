/**
 * Typed text inputs (Madhavan et al., VLDB 2008, section 5: inputs that accept only values of
 * one type, such as zip codes, dates or prices). For a text input with no keywords to try,
 * submit a few sample values of each candidate type and keep the type whose result pages are
 * informative by ISIT's own test (distinct signatures of pages that list records, per
 * submission, at least tau); the input's values are then that type's values. The markup's
 * type, min and max only choose the sample values: a type is kept because the site answered
 * it, not because the page said so.
 */
import { buildRequest } from './client.ts';
import type { FormInput } from './forms.ts';
import type { SeededRandom } from './random.ts';
import type { SurfaceSession } from './session.ts';

export const VALUE_TYPES = ['date', 'year', 'number', 'zip'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

export interface TypeTest {
  type: ValueType;
  tested: number;
  distinct: number;
  ratio: number;
  informative: boolean;
}

export interface TypedInput {
  name: string;
  /** The informative type with the highest ratio, or null (the input is left unbound). */
  type: ValueType | null;
  values: string[];
  tests: TypeTest[];
}

const DAY_MS = 86_400_000;
/** Longest date domain enumerated (ten years of days). */
const MAX_DAYS = 3660;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function dateMs(s: string | undefined): number | null {
  if (!s || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return null;
  const ms = Date.parse(`${s}T00:00:00Z`);
  return Number.isNaN(ms) ? null : ms;
}

function intOf(s: string | undefined): number | null {
  return s !== undefined && /^-?\d{1,9}$/.test(s) ? Number(s) : null;
}

function ints(lo: number, hi: number, step = 1): string[] {
  const out: string[] = [];
  for (let v = lo; v <= hi; v += step) out.push(String(v));
  return out;
}

/**
 * Every value of a type this input may take: the markup's min..max where it gives one, else the
 * type's generic domain (dates: the year from `today`; years 1950-2030; integers 0-1000; one
 * zip code in every hundred).
 */
export function typeValues(type: ValueType, input: FormInput, today: string): string[] {
  if (type === 'date') {
    const lo = dateMs(input.min) ?? dateMs(today) ?? Date.UTC(2027, 0, 1);
    const hi = dateMs(input.max) ?? lo + 364 * DAY_MS;
    const out: string[] = [];
    for (let t = lo; t <= hi && out.length < MAX_DAYS; t += DAY_MS) out.push(isoDay(t));
    return out;
  }
  const lo = intOf(input.min);
  const hi = intOf(input.max);
  if (type === 'year')
    return lo !== null && hi !== null && lo >= 1000 && hi <= 9999 && lo <= hi ? ints(lo, hi) : ints(1950, 2030);
  if (type === 'number')
    return lo !== null && hi !== null && lo <= hi && hi - lo <= 10_000 ? ints(lo, hi) : ints(0, 1000);
  return ints(0, 999).map((k) => String(Number(k) * 100 + 1).padStart(5, '0'));
}

/**
 * Distinct signatures among the pages that list records, over submissions of the given
 * bindings (first result pages only). Pages without records (errors, no results, "choose a
 * criterion") carry no information: counting their one shared signature would pass any input.
 */
export async function informativeness(
  session: SurfaceSession,
  bindings: Record<string, string>[],
  tag: string,
): Promise<{ tested: number; distinct: number }> {
  const sigs = new Set<string>();
  let tested = 0;
  for (const bound of bindings) {
    if (session.exhausted) break;
    const rp = await session.page(buildRequest(session.form, bound), Object.values(bound), tag, 1).catch(() => null);
    if (!rp) break;
    tested++;
    if (rp.cls === 'results') sigs.add(rp.signature);
  }
  return { tested, distinct: sigs.size };
}

/** Tests each candidate type on `sampleSize` of its values and keeps the most informative one. */
export async function detectType(
  session: SurfaceSession,
  input: FormInput,
  o: { tau: number; sampleSize: number; today: string },
  rnd: SeededRandom,
): Promise<TypedInput> {
  const tests: TypeTest[] = [];
  let best: { type: ValueType; values: string[]; ratio: number } | null = null;
  for (const type of VALUE_TYPES) {
    const values = typeValues(type, input, o.today);
    const picks =
      values.length <= o.sampleSize ? values : rnd.sample(values.length, o.sampleSize).map((k) => values[k]);
    const { tested, distinct } = await informativeness(
      session,
      picks.map((v) => ({ [input.name]: v })),
      `type:${input.name}:${type}`,
    );
    const ratio = tested ? distinct / tested : 0;
    const informative = tested > 0 && ratio >= o.tau;
    tests.push({ type, tested, distinct, ratio, informative });
    if (informative && (!best || ratio > best.ratio)) best = { type, values, ratio };
  }
  return { name: input.name, type: best?.type ?? null, values: best?.values ?? [], tests };
}
