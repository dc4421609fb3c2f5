/** A process of experiments/pool.ts: runs the tasks its parent sends, one at a time. */
import { Worker } from 'node:worker_threads';

interface TaskMsg {
  type: 'task';
  id: number;
  module: string;
  fn: string;
  arg: unknown;
}

type ExitMsg = { type: 'exit'; cleanup?: { module: string; fn: string } };

const call = async (module: string, fn: string, arg?: unknown): Promise<unknown> => {
  const mod = (await import(module)) as Record<string, (arg?: unknown) => Promise<unknown>>;
  const f = mod[fn];
  if (typeof f !== 'function') throw new Error(`${module} exports no function ${fn}`);
  return f(arg);
};

process.on('message', (m: TaskMsg | ExitMsg) => {
  if (m.type === 'exit') {
    const done = (): never => process.exit(0);
    if (m.cleanup) call(m.cleanup.module, m.cleanup.fn).then(done, done);
    else done();
    return;
  }
  call(m.module, m.fn, m.arg).then(
    (result) => process.send!({ type: 'result', id: m.id, result }),
    (e: unknown) =>
      process.send!({
        type: 'error',
        id: m.id,
        message: e instanceof Error ? `${e.message}\n${e.stack}` : String(e),
      }),
  );
});
// a parent that died (SIGKILL) leaves no one to take the result: stop instead of running on
process.on('disconnect', () => process.exit(1));
// 'disconnect' waits for the event loop, which a long synchronous step (a model's training) holds
// for seconds (a queue worker's job ran on 13 s after its worker was killed): a thread of its own
// checks four times a second whether the parent is still this process's parent, and ends the
// process when it is not (issue #69)
new Worker(
  `const { workerData } = require('node:worker_threads');
   setInterval(() => { if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL'); }, 250);`,
  { eval: true, workerData: process.ppid, stdout: false, stderr: false },
).unref();
process.send!({ type: 'ready' });
