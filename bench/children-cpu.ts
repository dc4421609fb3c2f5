/**
 * CPU seconds (user + system) of the child processes this process has waited for, from Linux's
 * /proc/self/stat (cutime, cstime); NaN where there is no /proc. The benches that time whole
 * commands (bench:tests, bench:startup) read it before and after.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let tick: number | undefined;

export function childrenCpu(): number {
  try {
    tick ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    // the command name may hold spaces: the fields after its closing parenthesis
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields 16 and 17 of the file (cutime, cstime) are the 14th and 15th after the name
    return (Number(f[13]) + Number(f[14])) / tick;
  } catch {
    return Number.NaN;
  }
}
