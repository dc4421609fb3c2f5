/**
 * npm run warc:convert -- --dir FOLDER --out FILE.warc.gz --labels FILE.csv [--label-from dir]
 *   [--manifest FILE] [--default-type TYPE] [--strict]
 */
import { existsSync, rmSync } from 'node:fs';
import { convertFolder } from '../warc-convert.ts';
import { checkOutputFile } from '../../lib/out-folder.ts';
import { type CliIo, failed, parseCommand, runAsProcess, usage, UsageError } from '../../lib/cli.ts';

const USAGE = `Usage: npm run warc:convert -- --dir FOLDER --out FILE.warc.gz --labels FILE.csv [options]

Turns a folder of saved pages into a WARC (one response record per file; gzipped when the name
ends in .gz) and a labels CSV (url,label,...). URLs come from a manifest (FOLDER/manifest.csv or
--manifest; columns file,url[,label,content_type,...], paths relative to the manifest), else from
the file name (WebKB and 4-universities style: "http:^^host^path", U+F03A read as ":", a trailing
U+F00D dropped), else from the path (first directory = host). A file may start with an HTTP header
block or a MIME header block without a status line (status 200, its Content-Type kept).

Options:
  --label-from manifest|dir  labels from the manifest (default) or the first directory
                             (<label>/<site>/<file>, WebKB's class folders)
  --manifest FILE            a manifest anywhere
  --default-type TYPE        content type of files without a header block or known extension
  --strict                   exit 2 (and write nothing) when some URL looks wrong
Duplicate URLs: a specific label is kept over "other", else the first file in path order; conflicting
labels are listed. ftp: and file: names are skipped (counted by reason): not served over HTTP.
`;
export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {
    dir: { type: 'string' },
    out: { type: 'string' },
    labels: { type: 'string' },
    'label-from': { type: 'string' },
    manifest: { type: 'string' },
    'default-type': { type: 'string' },
    strict: { type: 'boolean' },
  });
  if (!p) return 0;
  const v = p.values;
  if (!v.dir || !v.out || !v.labels) usage('--dir, --out and --labels are required (see --help)');
  if (!existsSync(v.dir)) usage(`--dir: "${v.dir}" does not exist`);
  checkOutputFile(v.out);
  checkOutputFile(v.labels);
  if (v.manifest && !existsSync(v.manifest)) usage(`--manifest: "${v.manifest}" does not exist`);
  const labelFrom = (v['label-from'] ?? 'manifest') as 'manifest' | 'dir';
  if (labelFrom !== 'manifest' && labelFrom !== 'dir')
    usage(`--label-from: "${v['label-from']}" is not manifest or dir`);
  try {
    const r = await convertFolder(v.dir, v.out, v.labels, {
      labelFrom,
      manifest: v.manifest,
      defaultType: v['default-type'],
    });
    for (const s of r.skipped.slice(0, 10)) io.err(`skipped ${s.file}: ${s.reason}\n`);
    if (r.skipped.length) {
      const by = new Map<string, number>();
      for (const s of r.skipped) {
        const why = s.reason.replace(/ \(.*\)$/, '');
        by.set(why, (by.get(why) ?? 0) + 1);
      }
      io.err(`skipped ${r.skipped.length} files: ${[...by].map(([k, n]) => `${n} ${k}`).join('; ')}\n`);
    }
    if (r.duplicates) {
      io.err(
        `${r.duplicates} duplicate URLs (a specific label over "other", else the first file); ${r.conflicts.length} with another label\n`,
      );
      for (const c of r.conflicts.slice(0, 10)) io.err(`  ${c.url}: kept "${c.kept}", ${c.file} says "${c.label}"\n`);
    }
    for (const s of r.suspicious.slice(0, 10)) io.err(`warning: ${s.file} -> ${s.url}: ${s.reason}\n`);
    if (r.suspicious.length > 10) io.err(`warning: ${r.suspicious.length - 10} more suspicious URLs\n`);
    if (v.strict && r.suspicious.length) {
      rmSync(v.out, { force: true });
      rmSync(v.labels, { force: true });
      usage(
        `--strict: ${r.suspicious.length} URLs look wrong (first: ${r.suspicious[0].url}: ${r.suspicious[0].reason}); nothing written`,
      );
    }
    io.out(`wrote ${r.records} records to ${v.out} and ${r.labelled} labels to ${v.labels}\n`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    failed((e as Error).message.split('\n')[0]);
  }
  return 0;
}

await runAsProcess(main, import.meta);
