/** Time helpers both sides share. */

/** Resolves after ms (a timer; nothing else). */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
