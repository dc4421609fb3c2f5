/**
 * Errors in one table (issue #54 item 7): every error class is a row of lib/errors.ts with its
 * code and exit code, a command's exit code comes from the table, and no module defines an error
 * of its own outside it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_FAILED, EXIT_USAGE, exitOf } from './cli.ts';
import {
  CommandFailed,
  ConfigError,
  CrawlError,
  ERRORS,
  ExperimentConfigError,
  FitError,
  type HarnessError,
  InputError,
  QueueUrlError,
  StrategyError,
  StrategyFailed,
  UsageError,
  WarcDamaged,
} from './errors.ts';

/** The harness's sources (tests, generated output and dependencies aside). */
function sources(dir = '.'): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (['node_modules', 'dist', 'results', '.git', '.scratch'].includes(f)) return [];
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.startsWith('test/') ? [p] : [];
  });
}

describe('errors in one table', () => {
  it('every class carries its code, and its exit code is the table row', () => {
    const cases: [HarnessError, keyof typeof ERRORS][] = [
      [new UsageError('u'), 'USAGE_ERR'],
      [new CommandFailed('c'), 'CMD_ERR_FAILED'],
      [new InputError('i'), 'INPUT_ERR'],
      [new ConfigError('w'), 'SIM_ERR_CONFIG'],
      [new ExperimentConfigError('e'), 'EXP_ERR_CONFIG'],
      [new FitError('f'), 'EXP_ERR_FIT'],
      [new QueueUrlError('q'), 'QUEUE_ERR_URL'],
      [new StrategyError('s'), 'CRAWL_ERR_STRATEGY'],
      [new StrategyFailed('s'), 'CRAWL_ERR_STRATEGY_FAILED'],
      [new CrawlError('CRAWL_ERR_NETWORK', 'n'), 'CRAWL_ERR_NETWORK'],
      [new WarcDamaged('d'), 'SIM_ERR_WARC_DAMAGED'],
    ];
    for (const [e, code] of cases) {
      expect(e.code, e.name).toBe(code);
      expect(e.exitCode, e.name).toBe(ERRORS[code].exit);
      expect(exitOf(e).code, e.name).toBe(ERRORS[code].exit);
      expect(e.name).toBe(e.constructor.name);
    }
    // a fit's error is a config error to every caller that catches those
    expect(new FitError('f')).toBeInstanceOf(ExperimentConfigError);
    // a strategy that fails mid-crawl is still a strategy error to a probe before any crawl
    expect(new StrategyFailed('s')).toBeInstanceOf(StrategyError);
  });

  it("a command's exit code: the user's input 2, a failure 1, anything else 1; one line", () => {
    expect(exitOf(new InputError('no such file: x.json'))).toEqual({
      code: EXIT_USAGE,
      line: 'error: no such file: x.json\n',
    });
    expect(exitOf(new ConfigError('bad\nsecond line')).line).toBe('error: bad\n');
    expect(exitOf(new CrawlError('CRAWL_ERR_SETTINGS', 's')).code).toBe(EXIT_USAGE);
    expect(exitOf(new CrawlError('CRAWL_ERR_TIMEOUT', 't')).code).toBe(EXIT_FAILED);
    expect(exitOf(new Error('a bug')).code).toBe(EXIT_FAILED);
    expect(exitOf('thrown text').code).toBe(EXIT_FAILED);
  });

  it('no module defines an error class or an error code outside the table', () => {
    const files = sources();
    expect(files).toContain('crawler/engine.ts');
    const codes = new Set(Object.keys(ERRORS));
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      // a class a caller could catch by type; unexported ones are control flow inside one module
      if (f !== join('lib', 'errors.ts'))
        expect(text.match(/^export (abstract )?class \w+ extends (\w*Error|HarnessError)\b.*$/gm) ?? [], f).toEqual([]);
      for (const m of text.matchAll(/['"]([A-Z]+_ERR(?:_[A-Z_]+)?)['"]/g))
        expect(codes.has(m[1]), `${f}: ${m[1]}`).toBe(true);
    }
  });
});
