/** npm run warc:convert -- --dir FOLDER --out FILE.warc.gz --labels FILE.csv [--label-from dir] */
import { existsSync } from 'node:fs';
import { convertFolder } from '../warc-convert.ts';
import { fail, parse } from './args.ts';

const USAGE = `Usage: npm run warc:convert -- --dir FOLDER --out FILE.warc.gz --labels FILE.csv [--label-from manifest|dir]

Turns a folder of saved pages into a WARC (one response record per file; gzipped when the name
ends in .gz) and a labels CSV (url,label,...). URLs come from FOLDER/manifest.csv (columns
file,url[,label,...]), else from the file name (WebKB style: "http:^^host^path"), else from the
path (first directory = host). A file may start with an HTTP header block. --label-from dir
labels each page with its first directory (WebKB's class folders).
`;
const v = parse(USAGE, { dir: { type: 'string' }, out: { type: 'string' }, labels: { type: 'string' }, 'label-from': { type: 'string' } });
if (!v.dir || !v.out || !v.labels) fail('--dir, --out and --labels are required (see --help)');
if (!existsSync(v.dir)) fail(`--dir: "${v.dir}" does not exist`);
const labelFrom = (v['label-from'] ?? 'manifest') as 'manifest' | 'dir';
if (labelFrom !== 'manifest' && labelFrom !== 'dir') fail(`--label-from: "${v['label-from']}" is not manifest or dir`);
try {
  const r = await convertFolder(v.dir, v.out, v.labels, { labelFrom });
  process.stdout.write(`wrote ${r.records} records to ${v.out} and ${r.labelled} labels to ${v.labels}\n`);
  for (const s of r.skipped) process.stderr.write(`skipped ${s.file}: ${s.reason}\n`);
} catch (e) {
  fail((e as Error).message.split('\n')[0]);
}
