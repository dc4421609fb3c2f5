/**
 * Rebuilds data/webkb/ from the WebKB "4 Universities" tarball (webkb-data.gtar.gz, January 1997):
 *
 *   npm run webkb:build -- PATH/TO/webkb-4universities-1997.tar.gz
 *
 * Keeps the four departments (cornell, texas, washington, wisconsin; the "misc" pages of other
 * universities are no department's web), converts them with sim/warc-convert.ts (URLs from the
 * file names, labels from the class folders, capture dates from the saved Date headers, ftp: and
 * file: names skipped, a specific label over "other" for pages filed twice) and writes
 * webkb.warc.gz and labels.csv here. Deterministic: the same tarball gives the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertFolder } from '../../sim/warc-convert.ts';
import { type CliIo, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';

const USAGE = `Usage: npm run webkb:build -- PATH/TO/webkb-4universities-1997.tar.gz\n`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {}, true);
  if (!p) return 0;

  const UNIVERSITIES = ['cornell', 'texas', 'washington', 'wisconsin'];
  const tarball = p.positionals[0];
  if (p.positionals.length !== 1 || !tarball || !existsSync(tarball))
    usage(
      `expected the WebKB tarball (npm run webkb:build -- PATH/TO/webkb-4universities-1997.tar.gz)${tarball ? `, not "${tarball}"` : ''}`,
    );
  const out = new URL('.', import.meta.url).pathname;
  const work = mkdtempSync(join(tmpdir(), 'webkb-'));
  try {
    execFileSync('tar', ['xzf', tarball, '-C', work]);
    const root = join(work, 'webkb');
    if (!existsSync(root)) throw new Error(`${tarball}: no webkb/ folder inside`);
    for (const label of readdirSync(root))
      for (const u of readdirSync(join(root, label)))
        if (!UNIVERSITIES.includes(u)) rmSync(join(root, label, u), { recursive: true });
    const r = await convertFolder(root, join(out, 'webkb.warc.gz'), join(out, 'labels.csv'), {
      labelFrom: 'dir',
      // fixed, so that the same tarball gives the same bytes: the date this recipe was written
      info: { date: '2026-12-03T00:00:00Z', source: 'webkb-data.gtar.gz (WebKB 4 Universities, January 1997)' },
    });
    const by = new Map<string, number>();
    for (const s of r.skipped)
      by.set(s.reason.replace(/ \(.*\)$/, ''), (by.get(s.reason.replace(/ \(.*\)$/, '')) ?? 0) + 1);
    io.out(
      `${r.records} pages (${r.redirects} of them saved redirects, served as 3xx), ${r.labelled} labels; skipped ${r.skipped.length} (${[...by].map(([k, n]) => `${n} ${k}`).join('; ')}); ` +
        `${r.duplicates} duplicates, ${r.conflicts.length} with two labels; ${r.suspicious.length} suspicious URLs\n`,
    );
    for (const c of r.conflicts) io.out(`  ${c.url}: kept "${c.kept}", dropped "${c.label}" (${c.file})\n`);
    for (const s of r.suspicious) io.out(`  suspicious ${s.url}: ${s.reason}\n`);
    io.out(`webkb.warc.gz ${(statSync(join(out, 'webkb.warc.gz')).size / 1e6).toFixed(1)} MB\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return 0;
}

await runAsProcess(main, import.meta);
