/**
 * When a request really leaves: undici publishes 'undici:client:sendHeaders' as it writes a
 * request's headers to the socket. The politeness gate uses that moment, not the moment a slot
 * was granted, because a request that waits for a new connection or a busy event loop would
 * otherwise reach the server closer to the next one than the configured gap.
 */
import diagnostics_channel from 'node:diagnostics_channel';

export interface SendWatch {
  sent: boolean;
  onSent(at: number): void;
}

let pending: SendWatch | null = null;
const byRequest = new WeakMap<object, SendWatch>();

diagnostics_channel.subscribe('undici:request:create', (msg) => {
  if (pending) {
    byRequest.set((msg as { request: object }).request, pending);
    pending = null;
  }
});
diagnostics_channel.subscribe('undici:client:sendHeaders', (msg) => {
  const w = byRequest.get((msg as { request: object }).request);
  if (w && !w.sent) {
    w.sent = true;
    w.onSent(performance.now());
  }
});

/** Runs fn (which must dispatch exactly one undici request synchronously) watching that request. */
export function watchSend<T>(w: SendWatch, fn: () => T): T {
  pending = w;
  try {
    return fn();
  } finally {
    pending = null;
  }
}
