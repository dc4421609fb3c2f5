/** Worker process of the experiment runner: runs jobs sent by the parent over IPC. */
import type { ExperimentConfig } from './config.ts';
import { closeSeedState, runJob } from './run-one.ts';

interface JobMsg {
  type: 'job';
  id: number;
  cfg: ExperimentConfig;
  seed: number;
  site: string;
  cacheDir: string | null;
  record: boolean;
}
interface ExitMsg {
  type: 'exit';
}

process.on('message', (m: JobMsg | ExitMsg) => {
  if (m.type === 'exit') {
    void closeSeedState().then(() => process.exit(0));
    return;
  }
  runJob(m.cfg, m.seed, m.site, m.cacheDir, m.record).then(
    (result) => process.send!({ type: 'result', id: m.id, result }),
    (e: unknown) =>
      process.send!({ type: 'error', id: m.id, message: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) }),
  );
});
process.send!({ type: 'ready' });
