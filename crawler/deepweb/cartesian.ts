/**
 * The brute-force baseline (CARTESIAN in Madhavan et al.): every input bound, every combination
 * of values, each submitted and its result pages followed, until the budget runs out. Combinations
 * go in a seeded pseudo-random order (an affine permutation of their indices), so a budget cut
 * samples the whole space instead of its first corner.
 */
import { queryInputs } from './forms.ts';
import { combination, domains } from './isit.ts';
import type { SurfaceSession } from './session.ts';

export interface CartesianResult {
  /** Combinations of every input's values. */
  size: number;
  submittedQueries: number;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** The size of the Cartesian product of a form's inputs (text inputs with the given values). */
export function cartesianSize(session: SurfaceSession, textValues: Record<string, string[]>): number {
  return [...domains(queryInputs(session.form), textValues).values()].reduce((p, v) => p * v.length, 1);
}

export async function cartesian(
  session: SurfaceSession,
  textValues: Record<string, string[]>,
  seed = 1,
): Promise<CartesianResult> {
  const dom = domains(queryInputs(session.form), textValues);
  const names = [...dom.keys()];
  const size = names.reduce((p, n) => p * dom.get(n)!.length, 1);
  const n = BigInt(size);
  let a = BigInt(2654435761 + seed * 2) % n || 1n;
  while (gcd(a, n) !== 1n) a = (a + 1n) % n || 1n;
  const c = BigInt(seed * 7919) % n;
  let submitted = 0;
  for (let k = 0n; k < n && !session.exhausted; k++) {
    await session.query(combination(names, dom, Number((a * k + c) % n)), 'cartesian');
    submitted++;
  }
  return { size, submittedQueries: submitted };
}
