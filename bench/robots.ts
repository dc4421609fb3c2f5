/**
 * npm run bench:robots : the time of one URL check against a hostile robots.txt ("Allow: /" and
 * 500,000 "*" then "z", issue #38) and against an ordinary one, for a 4,000-character path: the
 * harness's RFC 9309 matcher (lib/robots.ts) beside robots-parser (which the crawler used
 * before), runs alternated.
 */
import { createRequire } from 'node:module';
import { parseRobots } from '../lib/robots.ts';

const robotsParser = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  text: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined };

const FILES = {
  hostile: `User-agent: *\nDisallow: /\nAllow: /${'*'.repeat(500_000)}z\n`,
  ordinary: `User-agent: *\nDisallow: /admin/\nDisallow: /*.php$\nAllow: /admin/public/\nDisallow: /tmp\n`,
};
const url = `http://h.test/${'a'.repeat(4000)}y`;
const ms = (f: () => void, n: number): number => {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  return (performance.now() - t0) / n;
};
for (const [name, text] of Object.entries(FILES)) {
  const ours = parseRobots('http://h.test/robots.txt', text);
  const theirs = robotsParser('http://h.test/robots.txt', text);
  const rows: string[] = [];
  for (let round = 0; round < 3; round++) {
    const a = ms(() => ours.isAllowed(url, 'bench'), name === 'hostile' ? 200 : 20_000);
    const b = ms(() => theirs.isAllowed(url, 'bench'), name === 'hostile' ? 1 : 20_000);
    rows.push(`lib/robots.ts ${a.toFixed(4)} ms, robots-parser ${b.toFixed(4)} ms`);
  }
  process.stdout.write(`${name} robots.txt, one check of a 4,000-character path:\n  ${rows.join('\n  ')}\n`);
}
