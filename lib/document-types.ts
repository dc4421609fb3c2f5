/**
 * Documents known by their URL: the file types a 1990s department linked as papers, reports and
 * theses. Shared by the archive web (sim/archive-web.ts: which links it serves as placeholders)
 * and the crawler's URL judgement (crawler/focused/relevance.ts, mode "paper-url").
 */

/** What a department linked as a document, compared case-insensitively on the URL's path. */
export const DEFAULT_DOCUMENT_EXTENSIONS: readonly string[] = [
  '.pdf',
  '.pdf.gz',
  '.pdf.Z',
  '.ps',
  '.ps.gz',
  '.ps.Z',
  '.dvi',
  '.dvi.gz',
  '.dvi.Z',
];

/** The paper's target (seed paper 003): a URL ending in .pdf or .ps, compressed forms included. */
export const PAPER_EXTENSIONS: readonly string[] = ['.pdf', '.pdf.gz', '.pdf.Z', '.ps', '.ps.gz', '.ps.Z'];

/** Whether a URL's path ends in one of the extensions (case-insensitive; false for a bad URL). */
export function hasExtension(url: string, extensions: readonly string[]): boolean {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return false;
  }
  return extensions.some((e) => path.endsWith(e.toLowerCase()));
}
