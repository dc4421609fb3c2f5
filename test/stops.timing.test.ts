/**
 * Stops are visible (issue #50 item 8): a crawl stopped by SIGTERM says so in summary.json and
 * --resume of a crawl of a generated web serves the web again and goes on; an experiment killed
 * mid-run leaves its folder marked INCOMPLETE (and `report` refuses it); a write error names the
 * folder. A timing file: signals are sent by the clock.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { niced, programArgs } from './helpers.ts';
import { scaled } from './speed.ts';

const dir = mkdtempSync(join(tmpdir(), 'stops-'));

function run(
  args: string[],
  signal?: { at: RegExp; kill: NodeJS.Signals },
): Promise<{ code: number | null; err: string }> {
  return new Promise((done) => {
    const p = niced(spawn(process.execPath, programArgs(args), { stdio: ['ignore', 'ignore', 'pipe'] }));
    let err = '';
    let sent = false;
    p.stderr!.on('data', (b: Buffer) => {
      err += b.toString();
      if (signal && !sent && signal.at.test(err)) {
        sent = true;
        p.kill(signal.kill);
      }
    });
    p.on('exit', (code) => done({ code, err }));
  });
}

describe('stops are visible', () => {
  it('SIGTERM: summary.json says so; --resume serves the generated web again and finishes the crawl', {
    timeout: scaled(60_000),
  }, async () => {
    const out = join(dir, 'crawl');
    const args = [
      'experiments/cli/crawl.ts',
      '--web',
      'data/webs/small.json',
      '--max-pages',
      '120',
      '--delay-ms',
      '30',
    ];
    const first = await run([...args, '--out', out], { at: /pages: [1-9]/, kill: 'SIGTERM' });
    expect(first.code).toBe(0);
    const stopped = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(stopped.stopped).toBe('SIGTERM');
    expect(stopped.pages).toBeLessThan(120);
    const again = await run(['experiments/cli/crawl.ts', '--resume', out]);
    expect(again.code).toBe(0);
    expect(again.err).toMatch(/synthetic web data\/webs\/small\.json seed 1 served again on 127\.0\.0\.1:\d+/);
    const done = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(done.stopped).toBeUndefined();
    expect(done.pages).toBe(120);
    // the resumed pages were fetched, not refused by a dead port
    const log = readFileSync(join(out, 'crawl.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.slice(stopped.pages).filter((e) => e.status === 200).length).toBeGreaterThan((120 - stopped.pages) / 2);
  });

  it('an experiment killed mid-run leaves its folder INCOMPLETE; report refuses it; a run that ends removes it', {
    timeout: scaled(90_000),
  }, async () => {
    const cfg = join(dir, 'stop-me.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        web: 'data/webs/small.json',
        seeds: [1],
        budget: 60,
        every: 20,
        sites: ['cs.alpha-university.test'],
        strategies: ['bfs'],
        crawl: { delayMs: 0 },
      }),
    );
    const out = join(dir, 'stop-me');
    const killed = await run(['experiments/cli/experiment.ts', cfg, '--workers', '0', '--out', out], {
      at: /experiment stop-me/,
      kill: 'SIGKILL',
    });
    expect(killed.code).toBeNull();
    expect(readFileSync(join(out, 'INCOMPLETE'), 'utf8')).toMatch(/has not ended/);
    const report = await runCliInProcess('experiments/cli/report.ts', [out]);
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(/its run did not end/);
    const whole = await runCliInProcess('experiments/cli/experiment.ts', [cfg, '--workers', '0', '--out', out]);
    expect(whole.code).toBe(0);
    expect(existsSync(join(out, 'INCOMPLETE'))).toBe(false);
    expect(existsSync(join(out, 'summary.csv'))).toBe(true);
  });

  it('a folder that cannot be written is named in the one error line', async () => {
    const r = await runCliInProcess('experiments/cli/experiment.ts', [
      'focused',
      '--quick',
      '--out',
      '/dev/null/results',
    ]);
    // an --out that cannot be made is bad input, as for a crawl (issue #84): exit 2
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot write the results under \/dev\/null\/results: .*ENOTDIR/);
  });
});
