/**
 * A labels CSV of an archive (url,label,...), read on its own: a config's check and the replay
 * read labels without loading the WARC writer (warcio) that sim/warc-convert.ts needs.
 */
import { parse } from 'csv-parse/sync';
import { readTextFile } from '../lib/input.ts';
import { resource } from '../lib/paths.ts';
import { canonicalUrl } from '../lib/url.ts';

/**
 * Reads a labels CSV (url,label,...): canonical URL (lib/url.ts canonicalUrl, as the archive keys it) -> label. A byte-order mark is dropped; a
 * file without url and label columns, or with a row the CSV reader cannot read, is an Error
 * naming the file (and the line). Rows whose URL is not one are skipped: they match no page.
 */
export function readLabels(file: string): Map<string, string> {
  let rows: Record<string, string>[];
  // a regular file (a device or FIFO named as the labels is refused, not read until memory runs out)
  const text = readTextFile(resource(file), `labels ${file}`);
  try {
    rows = parse(text, {
      columns: true,
      skip_empty_lines: true,
      trim: true,
    }) as Record<string, string>[];
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    throw new Error(`labels ${file}${line ? ` line ${line}` : ''}: ${(e as Error).message.split('\n')[0]}`);
  }
  const columns = rows.length ? Object.keys(rows[0]) : [];
  for (const c of ['url', 'label'])
    if (!columns.includes(c))
      throw new Error(
        `labels ${file}: no "${c}" column (line 1 names ${columns.length ? columns.map((x) => `"${x}"`).join(', ') : 'none'}; expected url,label[,...])`,
      );
  const out = new Map<string, string>();
  for (const r of rows) {
    if (!r.url) continue;
    // the archive's key (lib/url.ts canonicalUrl); a URL that is none cannot match any page: skipped
    const k = canonicalUrl(r.url);
    if (k !== null) out.set(k, r.label ?? '');
  }
  return out;
}
