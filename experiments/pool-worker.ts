/** A process of experiments/pool.ts: runs the tasks its parent sends, one at a time. */
interface TaskMsg {
  type: 'task';
  id: number;
  module: string;
  fn: string;
  arg: unknown;
}

process.on('message', (m: TaskMsg | { type: 'exit' }) => {
  if (m.type === 'exit') {
    process.exit(0);
    return;
  }
  import(m.module)
    .then((mod: Record<string, (arg: unknown) => Promise<unknown>>) => {
      const f = mod[m.fn];
      if (typeof f !== 'function') throw new Error(`${m.module} exports no function ${m.fn}`);
      return f(m.arg);
    })
    .then(
      (result) => process.send!({ type: 'result', id: m.id, result }),
      (e: unknown) =>
        process.send!({
          type: 'error',
          id: m.id,
          message: e instanceof Error ? `${e.message}\n${e.stack}` : String(e),
        }),
    );
});
process.send!({ type: 'ready' });
