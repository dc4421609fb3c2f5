/**
 * Off a terminal (CI logs, pipes) a run is never silent: a line at least every heartbeat while
 * work goes on, with the time so far and the time left once something is done; a finished run's
 * own line goes out at once.
 */
import { describe, expect, it } from 'vitest';
import { progress } from './progress.ts';

const sink = (): { lines: string[]; stream: NodeJS.WritableStream } => {
  const lines: string[] = [];
  return { lines, stream: { write: (s: string) => lines.push(s.trimEnd()) > 0 } as unknown as NodeJS.WritableStream };
};
const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('progress off a terminal', () => {
  it('says it is still working when nothing has moved for a heartbeat, with an eta once a job is done', async () => {
    const { lines, stream } = sink();
    const bar = progress(4, 'jobs', '', { stream, heartbeatMs: 100, minGapMs: 0 });
    await wait(150);
    expect(lines).toEqual([expect.stringMatching(/^jobs: 0\/4, running for \d+ s$/)]);
    bar.update(1, {});
    bar.log('  seed 1 site bfs: 60 requests');
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^jobs: 1\/4, eta \d+ s$/),
      '  seed 1 site bfs: 60 requests',
    ]);
    await wait(250);
    expect(lines.slice(3).some((l) => /^jobs: 1\/4, running for \d+ s, eta \d+ s$/.test(l))).toBe(true);
    bar.stop();
    const after = lines.length;
    await wait(250);
    expect(lines).toHaveLength(after);
  });

  it('writes at most one update line per gap, but always the last', () => {
    const { lines, stream } = sink();
    const bar = progress(3, 'jobs', '', { stream, heartbeatMs: 60_000, minGapMs: 60_000 });
    bar.update(1, {});
    bar.update(2, {});
    bar.update(3, {});
    bar.stop();
    expect(lines).toEqual(['jobs: 1/3, eta 0 s', 'jobs: 3/3']);
  });
});
