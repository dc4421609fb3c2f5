/**
 * The in-memory coordinator across worker threads: the main thread serves it on a
 * MessagePort, each worker talks to it through ThreadCoordinator (same interface, every call a
 * message and its answer). Used by --processes N on one machine: nothing to install.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Coordinator } from './coordinator.ts';

type Method = Exclude<keyof Coordinator, 'close'>;
interface Call {
  id: number;
  method: Method;
  args: unknown[];
}
type Answer = { id: number; result: unknown } | { id: number; error: string };

/** Answers a worker's calls on port with coordinator (main thread). */
export function serveCoordinator(coordinator: Coordinator, port: MessagePort): void {
  port.on('message', (c: Call) => {
    const fn = coordinator[c.method] as (...a: unknown[]) => Promise<unknown>;
    fn.apply(coordinator, c.args).then(
      (result) => port.postMessage({ id: c.id, result } satisfies Answer),
      (e: Error) => port.postMessage({ id: c.id, error: e.message } satisfies Answer),
    );
  });
}

export class ThreadCoordinator implements Coordinator {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly port: MessagePort) {
    port.on('message', (a: Answer) => {
      const w = this.waiting.get(a.id);
      if (!w) return;
      this.waiting.delete(a.id);
      if ('error' in a) w.reject(new Error(a.error));
      else w.resolve(a.result);
    });
  }

  private call<T>(method: Method, ...args: unknown[]): Promise<T> {
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.port.postMessage({ id, method, args } satisfies Call);
    });
  }

  heartbeat: Coordinator['heartbeat'] = (m) => this.call('heartbeat', m);
  leave: Coordinator['leave'] = (id) => this.call('leave', id);
  members: Coordinator['members'] = (deadMs) => this.call('members', deadMs);
  publish: Coordinator['publish'] = (items) => this.call('publish', items);
  seed: Coordinator['seed'] = (items) => this.call('seed', items);
  read: Coordinator['read'] = (consumer, buckets, max) => this.call('read', consumer, buckets, max);
  reclaim: Coordinator['reclaim'] = (consumer, buckets, idleMs, max) =>
    this.call('reclaim', consumer, buckets, idleMs, max);
  ack: Coordinator['ack'] = (items) => this.call('ack', items);
  claim: Coordinator['claim'] = (url, member, budget, live) => this.call('claim', url, member, budget, live);
  done: Coordinator['done'] = (url) => this.call('done', url);
  counters: Coordinator['counters'] = () => this.call('counters');

  async close(): Promise<void> {
    this.port.close();
  }
}
