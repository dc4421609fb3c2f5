/** Starts `npm run sim` as a child process (its own core) and returns its port. */
import { spawn, type ChildProcess } from 'node:child_process';

export async function startSimProcess(
  web: string,
  seed = 1,
  extra: string[] = [],
): Promise<{ port: number; child: ChildProcess; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'sim/cli/serve.ts', '--web', web, '--seed', String(seed), ...extra],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`sim exited with ${code}`)));
  });
  return { port, child, stop: () => child.kill('SIGTERM') };
}
