/**
 * Text of the synthetic web's document formats (sim/document-bodies.ts writes them): its PDF (a
 * "Title:" line and plain lines) and PostScript ("%%Title" and "(...) show" strings).
 */
import type { DocKind, ParsedPage } from './parsed.ts';

/** Text of the synthetic PDF format: "Title:" line and plain lines between header and %%EOF. */
export function parsePdf(body: Buffer): ParsedPage {
  const s = body.toString('latin1');
  const lines = s.split('\n').filter((l) => l && !l.startsWith('%'));
  const t = lines.find((l) => l.startsWith('Title: '));
  return doc('pdf', t ? t.slice(7) : '', lines.join(' '));
}

/** Text of PostScript: %%Title and the strings of "(...) show" operators. */
export function parsePs(body: Buffer): ParsedPage {
  const s = body.toString('latin1');
  const title = /^%%Title:\s*(.*)$/m.exec(s)?.[1] ?? '';
  const parts: string[] = [];
  for (const line of s.split('\n')) {
    const m = /^\s*\((.*)\)\s*show\s*$/.exec(line);
    if (m) parts.push(m[1].replace(/\\(.)/g, '$1'));
  }
  return doc('ps', title.replace(/\\(.)/g, '$1'), parts.join(' '));
}

function doc(kind: DocKind, title: string, text: string): ParsedPage {
  return { kind, title, headings: [], text, links: [], noindex: false, nofollow: false, charset: 'latin1' };
}
