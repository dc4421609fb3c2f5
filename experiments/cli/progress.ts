/**
 * Progress display: a cli-progress bar on a terminal, a plain line every few seconds otherwise
 * (CI logs, pipes). Both go to stderr so stdout stays machine-readable.
 */
import cliProgress from 'cli-progress';

export interface ProgressSink {
  update(done: number, fields: Record<string, string | number>): void;
  /** A new total, for runs that learn theirs as they go. */
  setTotal(total: number): void;
  stop(): void;
}

export function progress(
  total: number,
  label: string,
  format = '{bar} {value}/{total} {label} | {rate} pages/s | frontier {frontier} | errors {errors}',
): ProgressSink {
  if (process.stderr.isTTY && !process.env.CI) {
    const bar = new cliProgress.SingleBar(
      { format, stream: process.stderr, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { label, rate: 0, frontier: 0, errors: 0 });
    return {
      update: (d, f) => bar.update(d, { label, ...f }),
      setTotal: (t) => bar.setTotal(t),
      stop: () => bar.stop(),
    };
  }
  let last = 0;
  const started = Date.now();
  return {
    setTotal(t) {
      total = t;
    },
    update(d, f) {
      const now = Date.now();
      if (now - last < 5000) return;
      last = now;
      // the time left at the rate so far, once there is a rate
      const eta = d > 0 && d < total ? `, eta ${Math.round((((now - started) / d) * (total - d)) / 1000)} s` : '';
      process.stderr.write(
        `${label}: ${d}/${total}${Object.entries(f)
          .map(([k, v]) => ` ${k} ${v}`)
          .join(',')}${eta}\n`,
      );
    },
    stop() {},
  };
}
