/**
 * How a crawl ended, as its WARC says it (issue #85): the crawler appends one WARC `metadata`
 * record at this URI when a crawl closes its archive (a resumed crawl appends another; the last
 * one is how it ended). A reader of the archive (sim:fit) warns when the crawl stopped with links
 * left, and says so when the archive holds no such record (another crawler wrote it): a twin
 * fitted to a cut crawl is a twin of the cut.
 */
export const CRAWL_END_URI = 'urn:crawler-harness:crawl-end';

export interface CrawlEnd {
  /** Pages fetched (the crawl's summary.pages). */
  pages: number;
  /** URLs still in the frontier when it ended: more than 0 means the web went on. */
  frontierLeft: number;
  /** Set when the crawl was stopped from outside (a signal, stop()). */
  stopped?: string;
  /** The limits it ran under. */
  maxPages: number;
  maxDepth: number | null;
}

/** A CrawlEnd read from a record's JSON, or null when it is not one. */
export function parseCrawlEnd(text: string): CrawlEnd | null {
  try {
    const o = JSON.parse(text) as Partial<CrawlEnd>;
    if (typeof o.pages !== 'number' || typeof o.frontierLeft !== 'number' || typeof o.maxPages !== 'number')
      return null;
    return {
      pages: o.pages,
      frontierLeft: o.frontierLeft,
      ...(typeof o.stopped === 'string' ? { stopped: o.stopped } : {}),
      maxPages: o.maxPages,
      maxDepth: typeof o.maxDepth === 'number' ? o.maxDepth : null,
    };
  } catch {
    return null;
  }
}

/**
 * The warning lines for an archive's files: one per file whose crawl stopped with links left, and
 * one for the files that say nothing of how their crawl ended. Empty when every crawl ran out of links.
 */
export function crawlEndWarnings(ends: readonly { file: string; end: CrawlEnd | null }[]): string[] {
  const out: string[] = [];
  for (const { file, end } of ends) {
    if (end === null) continue;
    if (end.frontierLeft > 0 || end.stopped)
      out.push(
        `warning: ${file}: the crawl behind it stopped with ${end.frontierLeft} URLs left in its frontier after ` +
          `${end.pages} pages (${end.stopped ? `stopped by ${end.stopped}` : `max pages ${end.maxPages}`}${
            end.maxDepth === null ? '' : `, max depth ${end.maxDepth}`
          }): the archive holds a cut of the web, and a twin fitted to it is a twin of the cut`,
      );
  }
  const silent = ends.filter((e) => e.end === null).map((e) => e.file);
  if (silent.length)
    out.push(
      `warning: ${silent.join(', ')}: the archive does not say how its crawl ended (not written by this ` +
        "project's crawler): if that crawl stopped at a page limit, a twin fitted to it is a twin of the cut",
    );
  return out;
}
