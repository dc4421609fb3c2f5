/**
 * A twin written as an archive: the HTML pages of its departments that the collection keeps
 * (sim/site-stats.ts kept(): the same sample the fit measured), as WARC response records,
 * and a labels CSV (every kept page's kind, lower case: faculty, course, paper ...). Replayed under
 * the archive experiment's own policy (holes, known documents, target), the twin is crawled by
 * exactly the code the real archive is. Same web config, seed and sample: the same bytes.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { WARCRecord } from 'warcio';
import { serializeRecord } from '../../lib/warc-records.ts';
import type { WebConfig } from '../../sim/config.ts';
import { Renderer } from '../../sim/content.ts';
import { KIND_NAMES, Web } from '../../sim/web.ts';
import { kept } from '../../sim/site-stats.ts';

export interface TwinArchive {
  warc: string;
  labels: string;
  /** Site name -> its host (one department each), and the start URL of each. */
  groups: Record<string, string[]>;
  starts: Record<string, string>;
  records: number;
}

/** A fixed capture date: the twin has no history, and the bytes must not depend on the clock. */
const DATE = '1997-01-15T00:00:00Z';

export async function writeTwinArchive(
  config: WebConfig,
  seed: number,
  sample: number,
  warcFile: string,
  labelsFile: string,
): Promise<TwinArchive> {
  const web = new Web(config, seed);
  const r = new Renderer(web);
  writeFileSync(warcFile, '');
  const labels: { url: string; label: string }[] = [];
  const groups: Record<string, string[]> = {};
  const starts: Record<string, string> = {};
  let records = 0;
  for (const site of web.sites.filter((s) => s.kind === 'department')) {
    const name = site.host.split('.')[1] ?? site.host;
    groups[name] = [site.host];
    starts[name] = `http://${site.host}/`;
    for (let id = site.first; id < site.first + site.count; id++) {
      if (!kept(web, id, sample)) continue;
      const page = r.render(id);
      const url = r.url(id);
      const body = typeof page.body === 'string' ? Buffer.from(page.body, 'utf8') : Buffer.from(page.body);
      const payload = [new Uint8Array(body.buffer, body.byteOffset, body.byteLength)];
      const record = WARCRecord.create(
        {
          url,
          date: DATE,
          warcHeaders: {
            'WARC-Record-ID': `<urn:uuid:${createHash('sha256')
              .update(url)
              .digest('hex')
              .slice(0, 32)
              .replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, '$1-$2-$3-$4-$5')}>`,
          },
          type: 'response',
          warcVersion: 'WARC/1.1',
          statusline: `HTTP/1.1 ${page.status} OK`,
          httpHeaders: { 'Content-Type': page.contentType },
        },
        payload,
      );
      appendFileSync(warcFile, await serializeRecord(record, payload, warcFile.endsWith('.gz')));
      labels.push({ url, label: KIND_NAMES[web.kind[id]].toLowerCase() });
      records++;
    }
  }
  writeFileSync(labelsFile, stringify(labels, { header: true, columns: ['url', 'label'] }));
  return { warc: warcFile, labels: labelsFile, groups, starts, records };
}
