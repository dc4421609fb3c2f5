/**
 * Archives that are samples (issue #34): a fixture in the "4 universities" layout built here,
 * with a hole (a linked page never collected), known documents (linked, not collected), a page
 * filed under two labels and an ftp name. The converter's rules, the placeholders' types, what a
 * closed archive offers, and each hole policy's accounting for every strategy and the oracle.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_DEFAULTS, loadExperiment, type ExperimentConfig } from '../experiments/focused/config.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { ArchiveWeb, placeholder } from '../sim/archive-web.ts';
import { DEFAULT_DOCUMENT_EXTENSIONS } from '../lib/document-types.ts';
import { WarcArchive } from '../sim/warc-index.ts';
import { convertFolder } from '../sim/warc-convert.ts';
import { readLabels } from '../sim/labels.ts';

const dir = mkdtempSync(join(tmpdir(), 'holes-'));
const src = join(dir, 'webkb');
const warc = join(dir, 'holes.warc.gz');
const labels = join(dir, 'holes.csv');
const HOSTS = ['www.cs.alpha.edu', 'www.cs.beta.edu'];

/** Saves a page as the 4 universities files are: MIME block, blank line, HTML; the URL in the name. */
function save(label: string, uni: string, url: string, html: string): void {
  mkdirSync(join(src, label, uni), { recursive: true });
  const name = url.replace(/:/g, '\uF03A').replace(/\//g, '^');
  writeFileSync(
    join(src, label, uni, name),
    `MIME-Version: 1.0\nDate: Sunday, 01-Dec-96 20:22:13 GMT\nContent-Type: text/html\n\n${html}`,
  );
}

beforeAll(async () => {
  for (const host of HOSTS) {
    const uni = host.split('.')[2];
    save(
      'department',
      uni,
      `http://${host}/`,
      `<html><title>${uni} computer science</title><body>
        <a href="/people.html">people</a> <a href="/missing.html">a page never collected</a>
        <a href="/papers/learning.ps.gz">learning paper</a> <a href="/papers/thesis.dvi">thesis</a>
        <a href="ftp://ftp.cs.${uni}.edu/pub/tr.ps">ftp report</a> <a href="/projects/robot.html">robot project</a>
      </body></html>`,
    );
    save(
      'other',
      uni,
      `http://${host}/people.html`,
      `<html><title>people</title><body><a href="/~ann/">Ann</a> <a href="/gone/">gone</a>
       <a href="/papers/vision.pdf">vision paper</a></body></html>`,
    );
    save(
      'faculty',
      uni,
      `http://${host}/~ann/`,
      `<html><title>Ann</title><body><a href="pubs/a.ps">paper a</a> <a href="pubs/b.ps.Z">paper b</a>
       <a href="/old/">old page</a></body></html>`,
    );
    // filed twice: under other (first in path order) and under project
    for (const label of ['other', 'project'])
      save(label, uni, `http://${host}/projects/robot.html`, '<html><title>robot</title><body>robots</body></html>');
  }
  // an ftp name, as WebKB has 46
  mkdirSync(join(src, 'other', 'alpha'), { recursive: true });
  writeFileSync(join(src, 'other', 'alpha', 'ftp\uF03A^^ftp.cs.alpha.edu^pub^README'), 'MIME-Version: 1.0\n\nhello');
  await convertFolder(src, warc, labels, { labelFrom: 'dir' });
});

describe('converting a sample collection', () => {
  it('skips ftp names with their reason, keeps the specific label of a page filed twice, dates captures', async () => {
    const r = await convertFolder(src, join(dir, 'again.warc'), join(dir, 'again.csv'), { labelFrom: 'dir' });
    expect(r.skipped).toEqual([
      {
        file: join('other', 'alpha', 'ftp\uF03A^^ftp.cs.alpha.edu^pub^README'),
        reason: 'ftp URL, not served over HTTP (ftp://ftp.cs.alpha.edu/pub/README)',
      },
    ]);
    expect(r.duplicates).toBe(2);
    expect(r.conflicts.map((c) => [c.url, c.kept, c.label])).toEqual([
      ['http://www.cs.alpha.edu/projects/robot.html', 'project', 'other'],
      ['http://www.cs.beta.edu/projects/robot.html', 'project', 'other'],
    ]);
    expect(r.suspicious).toEqual([]);
    expect(readLabels(labels).get('http://www.cs.alpha.edu/projects/robot.html')).toBe('project');
    const archive = await WarcArchive.open([warc]);
    expect(archive.hosts()).toEqual(HOSTS);
    expect(archive.lookup('http://www.cs.alpha.edu/')?.date).toBe('1996-12-01T20:22:13.000Z');
  });
});

describe('an archive under a hole policy', () => {
  it('serves known documents as placeholders of their type, and a hole as nothing', async () => {
    const web = await ArchiveWeb.open(await WarcArchive.open([warc]), { documents: DEFAULT_DOCUMENT_EXTENSIONS });
    expect(web.documentUrls('www.cs.alpha.edu')).toEqual([
      'http://www.cs.alpha.edu/papers/learning.ps.gz',
      'http://www.cs.alpha.edu/papers/thesis.dvi',
      'http://www.cs.alpha.edu/papers/vision.pdf',
      'http://www.cs.alpha.edu/~ann/pubs/a.ps',
      'http://www.cs.alpha.edu/~ann/pubs/b.ps.Z',
    ]);
    const type = (r: { headers: [string, string][] } | null): string | undefined =>
      r?.headers.find(([k]) => k === 'content-type')?.[1];
    const gz = await web.get('http://www.cs.alpha.edu/papers/learning.ps.gz');
    expect(gz?.status).toBe(200);
    expect(type(gz)).toBe('application/gzip');
    expect(gunzipSync(gz!.body).toString('latin1')).toMatch(/^%!PS-Adobe/);
    expect(type(await web.get('http://www.cs.alpha.edu/papers/vision.pdf'))).toBe('application/pdf');
    expect(type(await web.get('http://www.cs.alpha.edu/~ann/pubs/a.ps'))).toBe('application/postscript');
    expect(type(await web.get('http://www.cs.alpha.edu/papers/thesis.dvi'))).toBe('application/x-dvi');
    expect(placeholder('http://h.edu/x.PDF').headers[0][1]).toBe('application/pdf');
    expect(await web.get('http://www.cs.alpha.edu/missing.html')).toBeNull();
    expect(web.isHole('http://www.cs.alpha.edu/missing.html')).toBe(true);
    expect(web.isHole('http://www.cs.alpha.edu/papers/vision.pdf')).toBe(false);
    // a link not yet seen with a document extension is no known document: it is a hole
    expect(web.isHole('http://www.cs.alpha.edu/papers/never-linked.pdf')).toBe(true);
    expect(web.shape(['www.cs.alpha.edu'])).toEqual({ pages: 4, linkedUrls: 6, holes: 3, documents: 5 });
  });

  it('closed: links to holes are not offered, everything else on the page is byte for byte the same', async () => {
    const archive = await WarcArchive.open([warc]);
    const open = await ArchiveWeb.open(archive, { holes: 'open', documents: DEFAULT_DOCUMENT_EXTENSIONS });
    const closed = await ArchiveWeb.open(archive, { holes: 'closed', documents: DEFAULT_DOCUMENT_EXTENSIONS });
    const a = (await open.get('http://www.cs.alpha.edu/'))!.body.toString('latin1');
    const b = (await closed.get('http://www.cs.alpha.edu/'))!.body.toString('latin1');
    expect(a).toContain('<a href="/missing.html">');
    expect(b).toContain('<a data-archive-hole="/missing.html">');
    expect(b).toContain('<a href="/people.html">');
    expect(b).toContain('<a href="/papers/learning.ps.gz">');
    // an ftp link is no hole: an HTTP crawler does not follow it anyway
    expect(b).toContain('<a href="ftp://ftp.cs.alpha.edu/pub/tr.ps">');
    expect(b.replace('data-archive-hole=', 'href=')).toBe(a);
  });

  function config(holes: 'open' | 'closed'): ExperimentConfig {
    const base = loadExperiment('focused', { quick: true });
    return {
      ...base,
      name: `holes-${holes}`,
      budget: 20,
      every: 2,
      strategies: ['bfs', 'random'],
      archive: {
        ...structuredClone(ARCHIVE_DEFAULTS),
        warc: [warc],
        labels,
        relevant: [],
        relevantDocuments: ['.pdf', '.ps', '.ps.gz', '.ps.Z'],
        holes,
        groups: { alpha: ['www.cs.alpha.edu'], beta: ['www.cs.beta.edu'] },
      },
    };
  }

  it('open charges every hole fetched to the budget; closed charges none, for every strategy and the oracle', async () => {
    const open = await runExperiment(config('open'), { workers: 0, cacheDir: null });
    const closed = await runExperiment(config('closed'), { workers: 0, cacheDir: null });
    for (const s of open.summaries) {
      // papers by URL: the .ps.gz, .pdf, .ps and .ps.Z, not the .dvi
      expect(s.relevant_total).toBe(4);
      expect(s.hole_charged).toBe(s.hole_fetches);
      if (s.strategy === 'oracle') expect(s.hole_fetches).toBe(0);
      // the site has 3 holes: a crawl that reads every page fetches each once
      else expect(s.hole_fetches).toBe(3);
    }
    for (const s of closed.summaries) {
      expect(s.relevant_total).toBe(4);
      expect(s.hole_fetches).toBe(0);
      expect(s.hole_charged).toBe(0);
      expect(s.recall).toBe(1);
    }
    // open: the same crawl pays 3 fetches more for the same 4 papers (4 pages + 5 documents + 3 holes)
    const bfs = (d: typeof open): number => d.summaries.find((s) => s.strategy === 'bfs' && s.site === 'alpha')!.pages;
    expect(bfs(open)).toBe(12);
    expect(bfs(closed)).toBe(9);
    // the report says what the result rests on
    const facts = closed.facts.find((f) => f.site === 'alpha')!;
    expect(facts.archive).toMatchObject({ policy: 'closed', pages: 4, holes: 3, documents: 5, relevantDocuments: 4 });
    expect(facts.depths).toEqual([0, 1, 1, 2]);
    expect(facts.judgement).toMatchObject({ mode: 'paper-url', precision: 1, recall: 1 });
    expect(readFileSync(labels, 'utf8')).toContain('project');
  });
});
