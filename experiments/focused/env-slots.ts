/**
 * The environments of a process's jobs (the seed's synthetic web, or the archive), made once and
 * shared by the jobs that need them.
 */
import { readFileSync } from 'node:fs';
import { resource } from '../../lib/paths.ts';
import type { ExperimentConfig } from './config.ts';
import { archiveEnv, type Caches, cachesFor, type Env, simEnv } from './env.ts';
import { type PhaseTime, stopwatch } from './rows.ts';

/**
 * Environments by key (the seed's web, or the archive), shared by the jobs of a process. A job
 * holds its environment exclusively (its server is reset between strategies, its politeness audit
 * counts one crawl at a time), so jobs on one environment take turns, and an environment is closed
 * only when no job holds or waits for it: two experiments in one process (runExperiment called
 * twice at once, as a library may) no longer close or reset each other's web mid-crawl. Idle
 * environments other than the last one used are closed (a web is large), and that one too before
 * another is made.
 */
interface EnvSlot {
  env: Promise<Env>;
  /** How long the environment took to make, until the first job on it reports it. */
  made: PhaseTime | null;
  users: number;
  /** Settles when the job ahead of the next one has finished with the environment. */
  turn: Promise<void>;
}
const envs = new Map<string, EnvSlot>();
/** The environment of a job: the seed's synthetic web, or the archive; reused across jobs. */
export async function withEnv<T>(
  cfg: ExperimentConfig,
  seed: number,
  job: (env: Env, made: PhaseTime | null) => Promise<T>,
  caches: Caches = cachesFor(cfg),
): Promise<T> {
  // the web file's text is part of the key: a file rewritten in place (a sweep run again in its folder) is another web
  const key = `${caches}:${
    cfg.archive
      ? `archive:${JSON.stringify(cfg.archive)}`
      : `sim:${cfg.web}:${seed}:${cfg.faults}:${readFileSync(resource(cfg.web), 'utf8')}`
  }`;
  let slot = envs.get(key);
  if (!slot) {
    let made = stopwatch();
    // idle environments are closed before a new one is made, not after its first job: the last seed's
    // web, pages and training data stayed alive while the next seed's were built, the most memory-hungry
    // step (two seeds in one process: peak heap used 1,908 MiB, 1,243 MiB closed first)
    const idleClosed = closeIdle(key);
    const fresh: EnvSlot = {
      env: idleClosed.then(() => {
        made = stopwatch();
        return cfg.archive ? archiveEnv(cfg, caches) : simEnv(cfg, seed, caches);
      }),
      made: null,
      users: 0,
      turn: Promise.resolve(),
    };
    fresh.env = fresh.env.then((e) => {
      fresh.made = { phase: 'environment', strategy: '', ...made(), pages: 0 };
      return e;
    });
    slot = fresh;
    envs.set(key, slot);
  }
  slot.users++;
  const ahead = slot.turn;
  let done!: () => void;
  slot.turn = new Promise((r) => {
    done = r;
  });
  try {
    await ahead;
    const env = await slot.env;
    const made = slot.made;
    slot.made = null;
    return await job(env, made);
  } finally {
    slot.users--;
    done();
    // the last one used stays open for the next job (one that failed to start is forgotten); other
    // idle ones close
    const failed = await slot.env.then(
      () => false,
      () => true,
    );
    if (envs.get(key) === slot) {
      envs.delete(key);
      if (!failed) envs.set(key, slot);
    }
    await closeIdle(key);
  }
}

/** Closes every environment no job holds or waits for, but `keep`. */
async function closeIdle(keep: string | null): Promise<void> {
  for (const [k, slot] of [...envs])
    if (k !== keep && slot.users === 0) {
      envs.delete(k);
      await (await slot.env.catch(() => null))?.close();
    }
}

export async function closeSeedState(): Promise<void> {
  await closeIdle(null);
}
