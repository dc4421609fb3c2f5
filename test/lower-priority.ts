/**
 * Setup file of the "main" project (vitest.config.ts): its workers, and every process they start
 * (CLI children, Chromium, worker processes), run at nice 10, so that the "timing" project's
 * files, which run beside them at the default priority, get a core whenever their servers and
 * timers need one, and main's CPU-bound files fill the rest. Raising one's own niceness needs no
 * privilege; a worker already at 10 or above is left as it is.
 */
import { getPriority, setPriority } from 'node:os';

const NICE = 10;
try {
  if (getPriority() < NICE) setPriority(NICE);
} catch {
  // a system that refuses (none known): the tests run as they are, only less well ordered
}
