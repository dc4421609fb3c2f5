/**
 * What a queued job is (experiments/queue/queue.ts has the whole design): its data, its id (a hash
 * of everything its result depends on), where its result and its refusals are kept in Redis, and
 * how it is added.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Queue } from 'bullmq';
import { resource } from '../../lib/paths.ts';
import type { ExperimentConfig } from '../focused/config.ts';
import type { CodeVersion } from './code.ts';

/** How long finished and failed jobs and their results are kept (days), unless the submitter says otherwise. */
export const KEEP_DAYS = 7;

export interface QueueJobData {
  cfg: ExperimentConfig;
  /** The web config's text (null for an archive experiment), written to a file by the worker. */
  webJson: string | null;
  seed: number;
  site: string;
  record: boolean;
  /** The code and files the job was submitted with: a worker with others refuses it. */
  code: CodeVersion;
  /** How long the worker keeps the result (seconds). */
  keepS: number;
}

/** Where a job's result is kept: beside BullMQ's keys, under the queue's name. */
export const resultKey = (queue: string, jobId: string): string => `crawler-harness:${queue}:result:${jobId}`;

/** Where the workers that refused a job say why (a hash: worker -> reason), for the submitter to name them. */
export const refusedKey = (queue: string, jobId: string): string => `crawler-harness:${queue}:refused:${jobId}`;

/** The job id: a hash of everything the result depends on (the commit's name is not: equal trees, equal results). */
export function jobIdOf(d: QueueJobData): string {
  const { web: _path, ...cfg } = d.cfg;
  return createHash('sha256')
    .update(
      JSON.stringify({
        cfg,
        webJson: d.webJson,
        seed: d.seed,
        site: d.site,
        record: d.record,
        code: { tree: d.code.tree, node: d.code.node, files: d.code.files },
      }),
    )
    .digest('hex')
    .slice(0, 40);
}

/** A job's data; `code` is computed once per experiment (await codeVersionOf(cfg)) and shared by its jobs. */
export function jobData(
  cfg: ExperimentConfig,
  seed: number,
  site: string,
  record: boolean,
  code: CodeVersion,
  keepDays = KEEP_DAYS,
): QueueJobData {
  return {
    cfg,
    webJson: cfg.archive ? null : readFileSync(resource(cfg.web), 'utf8'),
    seed,
    site,
    record,
    code,
    keepS: Math.round(keepDays * 86_400),
  };
}

/** A job added once (its id is its data's hash), kept for its keepS once finished or failed. */
export const addJob = (
  queue: Queue<QueueJobData, unknown, string>,
  jobId: string,
  data: QueueJobData,
): Promise<unknown> =>
  queue.add('run', data, {
    jobId,
    attempts: 1,
    removeOnComplete: { age: data.keepS, count: 100_000 },
    removeOnFail: { age: data.keepS },
  });
