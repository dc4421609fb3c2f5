/**
 * Progress display: a cli-progress bar on a terminal, a plain line every few seconds otherwise
 * (CI logs, pipes). Both go to stderr so stdout stays machine-readable. A run is never silent: off
 * a terminal, a line comes at least every `heartbeatMs` (30 s) while work goes on, with the time
 * so far and, once something is done, the time left; `log` adds a line of its own (one per
 * finished run, say) above a terminal's bar.
 */
import { createRequire } from 'node:module';

export interface ProgressSink {
  update(done: number, fields: Record<string, string | number>): void;
  /** A new total, for runs that learn theirs as they go. */
  setTotal(total: number): void;
  /** A line of its own (above the bar on a terminal). */
  log(line: string): void;
  stop(): void;
}

export interface ProgressOptions {
  /** Where lines go (default process.stderr); a bar is drawn only on a terminal outside CI. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Off a terminal: the longest silence while work goes on, ms (default 30 s). */
  heartbeatMs?: number;
  /** Off a terminal: the shortest gap between two update lines, ms (default 5 s). */
  minGapMs?: number;
}

const seconds = (ms: number): string =>
  ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;

export function progress(
  total: number,
  label: string,
  format = '{bar} {value}/{total} {label} | {rate} pages/s | frontier {frontier} | errors {errors}',
  o: ProgressOptions = {},
): ProgressSink {
  const stream = o.stream ?? process.stderr;
  if (stream.isTTY && !process.env.CI) {
    // cli-progress (CommonJS) loads for a bar on a terminal only, not for --help or a log file
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
    const bars = new cliProgress.MultiBar(
      { format, stream: stream as NodeJS.WriteStream, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    const bar = bars.create(total, 0, { label, rate: 0, frontier: 0, errors: 0 });
    return {
      update: (d, f) => bar.update(d, { label, ...f }),
      setTotal: (t) => bar.setTotal(t),
      log: (line) => bars.log(`${line}\n`),
      stop: () => bars.stop(),
    };
  }
  const started = Date.now();
  let last = 0;
  let lastLine = started;
  let done = 0;
  const write = (line: string): void => {
    lastLine = Date.now();
    stream.write(`${line}\n`);
  };
  // the time left at the rate so far, once there is a rate
  const eta = (now: number): string =>
    done > 0 && done < total ? `, eta ${seconds(((now - started) / done) * (total - done))}` : '';
  const heartbeat = setInterval(() => {
    const now = Date.now();
    if (now - lastLine >= (o.heartbeatMs ?? 30_000) - 50)
      write(`${label}: ${done}/${total}, running for ${seconds(now - started)}${eta(now)}`);
  }, o.heartbeatMs ?? 30_000);
  heartbeat.unref();
  return {
    setTotal(t) {
      total = t;
    },
    update(d, f) {
      done = d;
      const now = Date.now();
      if (now - last < (o.minGapMs ?? 5000) && d < total) return;
      last = now;
      write(
        `${label}: ${d}/${total}${Object.entries(f)
          .map(([k, v]) => ` ${k} ${v}`)
          .join(',')}${eta(now)}`,
      );
    },
    log: write,
    stop() {
      clearInterval(heartbeat);
    },
  };
}
