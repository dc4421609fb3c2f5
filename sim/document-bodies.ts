/**
 * The documents of a synthetic web as a crawler fetches them: research papers in the synthetic
 * .pdf or .ps format (gzipped PostScript too), the other documents (syllabi, slides, assignments,
 * forms, CVs, talks) with bodies structured as their kind is, and images. Their words come from
 * the renderer's text (content.ts); the same web and id always give the same bytes.
 */
import { gzipSync } from 'node:zlib';
import { hash32, type Rng } from './web-rng.ts';
import { Kind, type Web } from './web.ts';

/** A word with its first letter in upper case. */
export const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** Middle sections of a paper (issue #52: papers do not all carry the same ones). */
const PAPER_SECTIONS = [
  'Background',
  'Related Work',
  'Model',
  'Method',
  'Approach',
  'Algorithm',
  'Analysis',
  'Experiments',
  'Evaluation',
  'Results',
  'Discussion',
  'Future Work',
];

/** n distinct entries of a list, in the list's order, drawn by r. */
function pick<T>(r: Rng, from: readonly T[], n: number): T[] {
  const idx = from.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => from[i]);
}

/** A page as the server sends it, of any kind (documents are rendered here, the rest in content.ts). */
export interface RenderedPage {
  status: number;
  contentType: string;
  body: string | Buffer;
  /** A `Refresh` response header (faults.refreshRate), sent beside the body. */
  refresh?: string;
}

/** What a document needs of the renderer's text (sim/content.ts Renderer implements it). */
export interface DocumentText {
  rng(id: number, what: number): Rng;
  name(id: number): { first: string; last: string };
  mixture(r: Rng, id: number, n: number, share: number): string;
  topicWords(rng: Rng, topic: number, n: number): string[];
  title(id: number): string;
  path(id: number): string;
}

export class DocumentPages {
  constructor(
    private readonly web: Web,
    private readonly text: DocumentText,
  ) {}

  /** A research paper in the synthetic .pdf or .ps format. */
  paper(id: number): RenderedPage {
    const w = this.web;
    const r = this.text.rng(id, 3);
    const owner = w.owner[id];
    const authors = [
      owner === id ? this.text.name(hash32(w.seed, id) % w.n) : this.text.name(owner),
      this.text.name(hash32(w.seed, id, 1) % w.n),
    ]
      .map((n) => `${n.first} ${n.last}`)
      .join(', ');
    const abstract = this.text.mixture(r, id, r.range(60, 110), 0.55);
    const keywords = this.text.topicWords(r, w.topic[id], 5).join(', ');
    const structured = w.config.structure.documentBodies === 1;
    // structured: 3-7 sections (an introduction, a pool's middle, a conclusion), 25-110 words each
    const names = structured
      ? ['Introduction', ...pick(r, PAPER_SECTIONS, r.range(1, 5)), 'Conclusion']
      : ['Introduction', 'Related Work', 'Approach', 'Evaluation', 'Conclusion'];
    const sections = names.map(
      (s, i) => `${i + 1} ${s}\n${this.text.mixture(r, id, structured ? r.range(25, 110) : r.range(40, 90), 0.5)}`,
    );
    const refs = Array.from(
      { length: r.range(4, 10) },
      (_, i) =>
        `[${i + 1}] ${this.text.topicWords(r, w.topic[id], r.range(4, 7)).map(cap).join(' ')}. ${r.range(1980, 2026)}.`,
    );
    // structured: a workshop paper or a scanned report now and then has no abstract heading (its
    // summary opens the text) and no keywords line
    const headed = !structured || r.next() >= 0.1;
    const lines = [
      `Title: ${this.text.title(id)}`,
      `Authors: ${authors}`,
      headed ? `Abstract: ${abstract}` : abstract,
      ...(headed ? [`Keywords: ${keywords}`] : []),
      ...sections,
      'References',
      ...refs,
    ];
    if (w.aux[id] === 2) {
      // gzipped PostScript, as departments served it; gzip output is deterministic (no timestamp)
      const ps = this.ps(this.text.title(id), lines);
      return { status: 200, contentType: 'application/gzip', body: gzipSync(Buffer.from(ps.body as string, 'utf8')) };
    }
    return w.aux[id] === 1 ? this.ps(this.text.title(id), lines) : this.pdf(lines);
  }

  /**
   * A non-paper document (syllabus, slides, assignment, form, CV, talk slides): no abstract, no
   * references. Slides, assignments and talks are as topical as a lecture page; a PostScript path
   * is served as PostScript.
   */
  pdfDoc(id: number): RenderedPage {
    const w = this.web;
    const r = this.text.rng(id, 3);
    const aux = w.aux[id];
    const topical = aux === 2 || (w.kind[id] === Kind.Syllabus && aux === 1);
    const share = topical ? w.config.text.topicShare : 0.25;
    const lines =
      w.config.structure.documentBodies === 1
        ? [`Title: ${this.text.title(id)}`, ...this.docBody(id, r, share)]
        : [`Title: ${this.text.title(id)}`, this.text.mixture(r, id, r.range(80, 200), share)];
    if (aux > 0 && this.text.path(id).endsWith('.ps')) return this.ps(this.text.title(id), lines);
    return this.pdf(lines);
  }

  /**
   * The body of a document other than a paper, structured as its kind is (issue #52), at sizes that
   * overlap a paper's (about 150-900 words against 250-900): lecture slides an outline, numbered
   * parts and often references; talk slides often an abstract and references, as a talk announced
   * from a paper; a CV its sections and a publication list (references, in all but name); a
   * syllabus its readings; an assignment its problems; a form its fields.
   */
  private docBody(id: number, r: Rng, share: number): string[] {
    const w = this.web;
    const topic = w.topic[id];
    const text = (lo: number, hi: number): string => this.text.mixture(r, id, r.range(lo, hi), share);
    const refs = (lo: number, hi: number): string[] =>
      Array.from(
        { length: r.range(lo, hi) },
        (_, i) =>
          `[${i + 1}] ${this.text.topicWords(r, topic, r.range(4, 7)).map(cap).join(' ')}. ${r.range(1980, 2026)}.`,
      );
    const parts = (n: number, lo: number, hi: number): string[] =>
      Array.from({ length: n }, (_, i) => `${i + 1} ${cap(this.text.topicWords(r, topic, 1)[0])}\n${text(lo, hi)}`);
    const kind = w.kind[id];
    const aux = w.aux[id];
    if (kind === Kind.Syllabus && aux === 0)
      return [
        `Description: ${text(60, 160)}`,
        `Schedule\n${text(60, 200)}`,
        ...(r.next() < 0.6 ? ['Readings', ...refs(3, 10)] : []),
      ];
    if (kind === Kind.Syllabus && aux === 1)
      return [
        `Outline\n${text(15, 40)}`,
        ...parts(r.range(4, 10), 20, 70),
        ...(r.next() < 0.4 ? ['References', ...refs(2, 8)] : []),
      ];
    if (kind === Kind.Syllabus)
      return [...parts(r.range(2, 6), 30, 110), ...(r.next() < 0.2 ? ['References', ...refs(1, 4)] : [])];
    if (kind === Kind.Form && aux === 1)
      return [
        `Education\n${text(20, 60)}`,
        `Employment\n${text(30, 100)}`,
        `Research Interests\n${text(30, 90)}`,
        'Publications',
        ...refs(5, 25),
        ...(r.next() < 0.5 ? ['References available upon request.'] : []),
      ];
    if (kind === Kind.Form && aux === 2)
      return [
        ...(r.next() < 0.6 ? [`Abstract: ${text(50, 110)}`] : []),
        ...parts(r.range(4, 9), 20, 80),
        ...(r.next() < 0.5 ? ['References', ...refs(2, 8)] : []),
      ];
    return [text(80, 260)];
  }

  private pdf(lines: string[]): RenderedPage {
    return { status: 200, contentType: 'application/pdf', body: `%PDF-1.4\n%SYNTH-DOC\n${lines.join('\n')}\n%%EOF\n` };
  }

  private ps(title: string, lines: string[]): RenderedPage {
    const esc = (s: string): string => s.replace(/[()\\]/g, (c) => `\\${c}`);
    return {
      status: 200,
      contentType: 'application/postscript',
      body:
        `%!PS-Adobe-3.0\n%%Title: ${esc(title)}\n%%Creator: ` +
        `synthetic-web\n%%EndComments\n${lines.map((l) => `(${esc(l)}) show`).join('\n')}\nshowpage\n%%EOF\n`,
    };
  }

  image(id: number): RenderedPage {
    const buf = Buffer.alloc(512 + (hash32(this.web.seed, id) % 2048));
    let x = hash32(this.web.seed, id, 4) | 1;
    for (let i = 0; i < buf.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      buf[i] = x & 0xff;
    }
    buf[0] = 0xff;
    buf[1] = 0xd8;
    buf[2] = 0xff; // JPEG magic
    return { status: 200, contentType: 'image/jpeg', body: buf };
  }
}
