/**
 * The web's background sites (web config "background"): off-topic, mixed, directory, conference,
 * publisher and personal sites around the departments, drawn by the builder's generator after the
 * departments (web-builder.ts), so the departments do not change with them.
 */
import type { WebDraft } from './web-draft.ts';
import { Anchor, Kind, LinkFlag } from './web-kinds.ts';

/** Adds the background sites to the web being built. */
export function addBackground(g: WebDraft): void {
  const { rng } = g;
  const b = g.w.config.background;
  const v = g.w.vocab;
  const pickShare = <K extends string>(shares: Partial<Record<K, number>>): K => {
    const entries = Object.entries(shares) as [K, number][];
    const total = entries.reduce((a, [, x]) => a + x, 0);
    let u = rng.next() * total;
    for (const [k, x] of entries) {
      if ((u -= x) < 0) return k;
    }
    return entries[entries.length - 1][0];
  };
  const deptHomes = g.w.sites.map((s) => s.first);
  for (let i = 0; i < b.sites; i++) {
    const kind = pickShare(b.kinds);
    const computing = kind === 'conference' || kind === 'publisher';
    const topic = computing
      ? rng.int(v.computingCount)
      : kind === 'personal'
        ? rng.pick(g.lifeTopics)
        : kind === 'directory'
          ? g.news
          : kind === 'mixed'
            ? rng.chance(0.5)
              ? rng.int(v.computingCount)
              : rng.pick(g.offTopics)
            : rng.pick(g.offTopics);
    const word = v.topics[topic].words[rng.int(Math.min(10, v.topics[topic].words.length))].replace(/[^a-z0-9]+/g, '');
    const site = g.addSite({
      host: `${word}-${i}.${kind}.test`,
      name: `${word} ${kind} ${i}`,
      kind,
      robots: pickShare(b.robots),
      charset: rng.chance(0.1) ? 'iso-8859-1' : 'utf-8',
      sessionIds: rng.chance(0.03),
      minGapMs: rng.chance(b.rateLimitedShare) ? b.minGapMs : 0,
    });
    const comm = g.community(topic, computing);
    const home = g.page(Kind.BgHome, topic, comm);
    const n = rng.range(b.pagesMin, b.pagesMax);
    const ids = [home];
    for (let j = 1; j < n; j++) {
      const isPaper = kind === 'publisher' && rng.chance(0.5);
      const id = g.page(
        isPaper ? Kind.Paper : Kind.BgPage,
        kind === 'mixed' && rng.chance(0.5) ? rng.pick(g.offTopics) : topic,
        comm,
        -1,
        isPaper && rng.chance(0.2) ? 1 : 0,
      );
      const parent = ids[Math.floor((j - 1) / 5)];
      g.link(parent, id, Anchor.Title);
      if (!isPaper) ids.push(id);
    }
    if (kind === 'directory') {
      for (const h of deptHomes) g.link(home, h, Anchor.Title, LinkFlag.Extra);
      for (let k = 0; k < 30 && i > 0; k++)
        g.link(
          rng.pick(ids),
          g.w.sites[g.w.config.departments.length + rng.int(i)].first,
          Anchor.Title,
          LinkFlag.Extra,
        );
    }
    site.count = g.kinds.length - site.first;
  }
}
