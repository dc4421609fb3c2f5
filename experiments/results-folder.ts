/**
 * One results folder being written: every family's outputs (CSV tables, the config that reruns the
 * run, figures, report, page) go through here, so a file is written one way, listed once, and a new
 * kind of output is one method. Every folder gets provenance.json (provenance.ts) first. The
 * folder is marked INCOMPLETE while a run writes into it (family.ts writingInto), so a run killed
 * mid-output never leaves one that looks complete.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { TopLevelSpec } from 'vega-lite';
import { configFileText } from './config-files.ts';
import { PROVENANCE_FILE, type Provenance, provenance, provenanceLine } from './provenance.ts';
import type { Figure } from './figures.ts';

type Cast = NonNullable<Parameters<typeof stringify>[1]>['cast'];

/** Cells of object values (a plug-in's counter, a swept list) as JSON, null as empty. */
export const JSON_OBJECTS: Cast = { object: (v: unknown) => (v === null ? '' : JSON.stringify(v)) };

/** Booleans as true and false (csv-stringify's own default writes 1 and an empty cell). */
export const WORD_BOOLEANS: Cast = { boolean: (b: boolean) => String(b) };

/** Every row's columns, in the order they first appear (a plug-in's own counters are its rows' alone). */
const columnsOf = (rows: readonly object[]): string[] => [...new Set(rows.flatMap((r) => Object.keys(r)))];

export class ResultsFolder {
  /** The files written, in order, relative to the folder. */
  readonly files: string[] = [];
  /** What made the folder: provenance.json's content. */
  private made: Provenance = provenance();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    // what made the folder (commit, code hash, Node, machine, date, command), before any result
    this.put(PROVENANCE_FILE, `${JSON.stringify(this.made, null, 2)}\n`);
  }

  /**
   * What only the run knows, added to provenance.json: the strategy modules it loaded, each with its
   * import closure's hash (a plug-in's code is part of what made the results), and which process
   * computed each job.
   */
  recordRun(run: Pick<Provenance, 'modules' | 'jobs'>): void {
    this.made = {
      ...this.made,
      ...(Object.keys(run.modules ?? {}).length ? { modules: run.modules } : {}),
      ...(run.jobs?.length ? { jobs: run.jobs } : {}),
    };
    writeFileSync(join(this.dir, PROVENANCE_FILE), `${JSON.stringify(this.made, null, 2)}\n`);
  }

  /** A file of the folder, listed in `files`. */
  readonly put = (name: string, content: string | Buffer): void => {
    writeFileSync(join(this.dir, name), content);
    this.files.push(name);
  };

  /**
   * report.md, ending with the line that says what made it (provenance.json) unless the report
   * already shows it: a report read on its own can be tied to the code that made it.
   */
  report(text: string): void {
    const body = text.endsWith('\n') ? text : `${text}\n`;
    this.put('report.md', body.includes('Made by: ') ? body : `${body}\nMade by: ${provenanceLine(this.made)}.\n`);
  }

  /**
   * A CSV table with a header: `columns` (default: every row's, in the order they first appear),
   * cells as `cast` says (csv-stringify's own when not given: a family's tables keep their bytes).
   */
  csv(name: string, rows: readonly object[], opts: { columns?: readonly string[]; cast?: Cast } = {}): void {
    this.put(
      name,
      stringify(rows as Record<string, unknown>[], {
        header: true,
        columns: [...(opts.columns ?? columnsOf(rows))],
        ...(opts.cast ? { cast: opts.cast } : {}),
      }),
    );
  }

  /**
   * config.json: the resolved config, which reruns the run as is, and as its comment the command
   * that made it (family.ts rerunCommand; a library call: by name) and the file's own rerun.
   */
  config(body: Record<string, unknown>, made: string, verb?: string): void {
    const again = ['npm run experiment --', verb, join(this.dir, 'config.json')].filter(Boolean).join(' ');
    this.put('config.json', configFileText(`${made} (or: ${again})`, body));
  }

  /** NAME.svg, NAME.png and NAME.pdf of a figure (experiments/figures.ts), one or two columns wide. */
  async figure(name: string, spec: TopLevelSpec, columns: 1 | 2 = 1): Promise<Figure> {
    // the figure stack (vega, resvg, pdfkit, fontkit: ~350 modules, ~0.9 CPU-s) loads when a run
    // draws its first figure, not when a command that may never draw one starts
    const { writeFigure } = await import('./figures.ts');
    return writeFigure(this.put, name, spec, columns);
  }
}
