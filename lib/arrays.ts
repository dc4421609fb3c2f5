/**
 * Appending one array to another. `a.push(...b)` passes b's elements as arguments, and past about
 * 120,000 of them (V8's stack) it throws RangeError: a run's curve rows, an archive's warnings or a
 * hub's anchor words grow with the run, so the harness appends them one by one
 * (test/architecture.test.ts finds any `push(...` left in the source).
 */
export function append<T>(into: T[], items: Iterable<T>): T[] {
  for (const x of items) into.push(x);
  return into;
}
