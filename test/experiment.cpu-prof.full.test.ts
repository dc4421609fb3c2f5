/**
 * experiment --cpu-prof DIR end to end: a quick run with one job process, which writes its profile
 * (full tier: two runs with a worker process each, about 10 s; the flag's refusals are in
 * test/experiment.cli.test.ts, in the default tier).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { smallRun } from './helpers.ts';

describe('experiment --cpu-prof', () => {
  it('--cpu-prof DIR: each job process writes a CPU profile there, and the command says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpu-prof-'));
    const prof = join(dir, 'prof');
    const args = ['--quick', ...smallRun(['bfs']), '--workers', '1', '--out', join(dir, 'run'), '--cpu-prof', prof];
    const r = await runCliInProcess('experiments/cli/experiment.ts', args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`--cpu-prof: 1 job process profiled in ${prof} `);
    const main = readdirSync(prof).filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
    expect(main).toHaveLength(1);
    const profile = JSON.parse(readFileSync(join(prof, main[0]), 'utf8')) as { nodes: unknown[]; samples: number[] };
    expect(profile.nodes.length).toBeGreaterThan(100);
    expect(profile.samples.length).toBeGreaterThan(0);
    // profiling stops with the command: the next run in this process writes nothing there
    const before = readdirSync(prof).length;
    const again = await runCliInProcess('experiments/cli/experiment.ts', args.slice(0, -2));
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(prof)).toHaveLength(before);
  });
});
