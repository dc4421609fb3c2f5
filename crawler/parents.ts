/**
 * Parent URLs by sequence number, kept only while queued URLs refer to them (reference counts):
 * the crawl log names each page's parent, and a long crawl must not keep every URL it fetched.
 * URLs dropped with a whole host (skipped, or moved to another process) keep theirs.
 */
export class ParentUrls {
  private readonly urls = new Map<number, string>();
  private readonly refs = new Map<number, number>();

  /** Records the URL of page `seq` if a queued URL refers to it. */
  remember(seq: number, url: string): void {
    if (this.refs.has(seq)) this.urls.set(seq, url);
  }

  /** Records a URL whatever its references (a resumed crawl's log); `prune` drops the unreferenced. */
  restore(seq: number, url: string): void {
    this.urls.set(seq, url);
  }

  /** A queued URL now refers to page `seq` (-1: a seed, no parent). */
  ref(seq: number): void {
    if (seq >= 0) this.refs.set(seq, (this.refs.get(seq) ?? 0) + 1);
  }

  /** A URL referring to page `seq` left the queue (fetched or dropped). */
  unref(seq: number): void {
    const n = this.refs.get(seq);
    if (n === undefined) return;
    if (n > 1) this.refs.set(seq, n - 1);
    else {
      this.refs.delete(seq);
      this.urls.delete(seq);
    }
  }

  url(seq: number): string | null {
    return this.urls.get(seq) ?? null;
  }

  /** Drops URLs no queued URL refers to (after a resume restored every logged page). */
  prune(): void {
    for (const k of this.urls.keys()) if (!this.refs.has(k)) this.urls.delete(k);
  }

  /** URLs held (for tests of the bound). */
  get size(): number {
    return this.urls.size;
  }
}
