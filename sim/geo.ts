/**
 * Geography of the synthetic web: which region each site sits in (a hash of seed and host,
 * weighted by geo.siteShares) and how long a response takes to reach a crawler in another
 * region (one round trip plus the body at the pair's bandwidth, times geo.timeScale).
 */
import type { WebConfig } from './config.ts';
import { hash32, seedNumber } from './web-rng.ts';

/** Region of a host in the web built from (config, seed). */
export function siteRegion(config: WebConfig, seed: number | string, host: string): string {
  const g = config.geo;
  const total = g.siteShares.reduce((a, b) => a + b, 0);
  let u = (hash32(seedNumber(seed), seedNumber(host), 41) / 4294967296) * total;
  for (let i = 0; i < g.regions.length; i++) {
    u -= g.siteShares[i];
    if (u < 0) return g.regions[i];
  }
  return g.regions[g.regions.length - 1];
}

/** Delay of a response of `bytes` from a site in siteRegion to a crawler in crawlerRegion, ms; 0 if either is unknown. */
export function geoDelayMs(
  config: WebConfig,
  crawlerRegion: string | undefined,
  siteRegionName: string,
  bytes: number,
): number {
  const g = config.geo;
  const i = crawlerRegion ? g.regions.indexOf(crawlerRegion) : -1;
  const j = g.regions.indexOf(siteRegionName);
  if (i < 0 || j < 0) return 0;
  return g.timeScale * (g.rttMs[i][j] + bytes / (g.bandwidthMBps[i][j] * 1000));
}
