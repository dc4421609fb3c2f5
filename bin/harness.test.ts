import { describe, expect, it } from 'vitest';
import { main } from './harness.ts';

/** main() of the bin with its output caught. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

describe('the bin', () => {
  it('lists its commands for --help (exit 0) and for no command (exit 2)', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: crawler-harness COMMAND/);
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.err).toBe(help.out);
  });

  it('refuses a name that is no command, those of Object.prototype too, with exit 2 and the list', async () => {
    for (const name of ['nope', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = await run([name, '--help']);
      expect(r.code, name).toBe(2);
      expect(r.err).toMatch(new RegExp(`^crawler-harness: unknown command "${name}"; commands: experiment, compare, `));
    }
  });
});
