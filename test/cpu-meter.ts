/**
 * Setup file of both projects (vitest.config.ts): with TEST_CPU_LOG set (npm run bench:tests sets
 * it), each test file's CPU time in its worker process (its own code and worker threads, not the
 * processes it starts) and its wall time are appended to that file as a JSON line. Without it,
 * nothing. Files share their worker (isolate: false), so the difference over the file is the file's.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const log = process.env.TEST_CPU_LOG;
if (log) {
  let cpu0: NodeJS.CpuUsage | undefined;
  let wall0 = 0;
  beforeAll(() => {
    cpu0 = process.cpuUsage();
    wall0 = performance.now();
  });
  afterAll(() => {
    const d = process.cpuUsage(cpu0);
    const file = expect.getState().testPath ?? '?';
    const line = { file, cpuS: (d.user + d.system) / 1e6, wallS: (performance.now() - wall0) / 1000 };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}
