/**
 * What made a results folder (issue #71): the commit and whether the checkout was clean, the hash
 * of the harness's code and data (the queue's, experiments/queue/code.ts), the Node version, the
 * machine, the date and the command. Written as provenance.json into every folder a run writes
 * (family.ts writingInto), shown by the focused report and by compare, so a committed reference
 * can be tied to the code that made it.
 */
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import { readJsonFile } from '../lib/input.ts';
import { redactArg } from '../lib/secrets.ts';
import { gitCommit, treeHash } from './queue/code.ts';

export const PROVENANCE_FILE = 'provenance.json';

export interface Provenance {
  /** The git commit, "+changes" when the checkout differed from it; null outside a git checkout. */
  commit: string | null;
  /** Hash of the harness's code, shipped data and lockfile (experiments/queue/code.ts treeHash). */
  code: string;
  /** Strategy modules the run loaded: path -> hash of its import closure (experiments/queue/code.ts). */
  modules?: Record<string, string>;
  /** Which process computed each seed x site of the run, and from which code (JobMaker). */
  jobs?: JobMaker[];
  node: string;
  platform: string;
  machine: string;
  date: string;
  command: string;
}

/**
 * The process that computed one seed x site: a local pool's (pid), or a queue worker's (pid, as
 * its log and refusals name it) and its job process's (jobPid); the commit and code hash that
 * process loaded its code from (absent in folders written before issue #89).
 */
export interface JobMaker {
  seed: number;
  site: string;
  host: string;
  pid: number;
  jobPid?: number;
  commit?: string | null;
  code?: string;
}

let memo: Provenance | null = null;

/** This process's provenance (the date of the first call: every folder of one run says the same). */
export function provenance(): Provenance {
  if (memo) return memo;
  const c = cpus();
  memo = {
    commit: gitCommit(),
    code: treeHash(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    machine: `${hostname()}, ${c.length} x ${c[0]?.model.trim() ?? 'unknown CPU'}`,
    date: new Date().toISOString(),
    // no credential of a --queue URL (or any other) is written into a results folder
    command: process.argv
      .slice(1)
      .map((a) => redactArg(a.replace(/^.*\/(experiments|bin)\//, '$1/')))
      .join(' '),
  };
  return memo;
}

/** A folder's provenance, or null (a folder written before provenance existed, or not a results folder). */
export function readProvenance(dir: string): Provenance | null {
  try {
    return readJsonFile(join(dir, PROVENANCE_FILE)) as Provenance;
  } catch {
    return null;
  }
}

/** One line of it, for reports and compare. */
export const provenanceLine = (p: Provenance): string =>
  `commit ${p.commit ?? 'none (not a git checkout)'}, code ${p.code}${modulesText(p)}, Node ${p.node}, ${p.platform}, ${p.machine}, ${p.date}${jobsText(p)}`;

/** ", jobs: 8 on vm (pids 12, 13), 4 on lab2 (pid 7)": where the run's jobs were computed. */
function jobsText(p: Provenance): string {
  if (!p.jobs?.length) return '';
  const byHost = new Map<string, { n: number; pids: Set<number> }>();
  for (const j of p.jobs) {
    const h = byHost.get(j.host) ?? { n: 0, pids: new Set<number>() };
    h.n++;
    h.pids.add(j.pid);
    byHost.set(j.host, h);
  }
  const hosts = [...byHost].map(([host, h]) => {
    const pids = [...h.pids].sort((a, b) => a - b);
    const shown = pids.length <= 4 ? `pid${pids.length > 1 ? 's' : ''} ${pids.join(', ')}` : `${pids.length} processes`;
    return `${h.n} on ${host} (${shown})`;
  });
  // workers on another commit of the same code (a docs-only change) are allowed; say so all the same
  const other = new Map<string, number>();
  for (const j of p.jobs)
    if ((j.code && j.code !== p.code) || (j.commit !== undefined && j.commit !== p.commit)) {
      const k = `${j.host} (commit ${j.commit ?? 'none'}, code ${j.code ?? '?'})`;
      other.set(k, (other.get(k) ?? 0) + 1);
    }
  const differed = [...other].map(([k, n]) => `${n} on ${k}`).join(', ');
  return `; jobs: ${hosts.join(', ')}${differed ? `; computed by workers whose code or commit differs from this run's: ${differed}` : ''}`;
}

const modulesText = (p: Provenance): string =>
  Object.entries(p.modules ?? {})
    .map(([f, h]) => `, module ${f} ${h}`)
    .join('');

/** How the code of two runs differs (harness, strategy modules), in words; null when it does not. */
export function codeDifference(a: Provenance, b: Provenance): string | null {
  const parts: string[] = [];
  if (a.code !== b.code) parts.push(`harness code ${a.code} vs ${b.code}`);
  for (const f of new Set([...Object.keys(a.modules ?? {}), ...Object.keys(b.modules ?? {})]))
    if (a.modules?.[f] !== b.modules?.[f])
      parts.push(`module ${f} ${a.modules?.[f] ?? '(none)'} vs ${b.modules?.[f] ?? '(none)'}`);
  return parts.length ? parts.join('; ') : null;
}
