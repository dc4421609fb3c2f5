/**
 * robots.txt of each synthetic host, by profile. The texts exercise RFC 9309: longest match,
 * Allow beating Disallow on ties, wildcards and "$", agent-specific groups, Crawl-delay
 * (not in the RFC; honoured by some engines), a missing file (404), a failing one (503) and
 * one behind a redirect.
 */
import type { RobotsProfile } from './config.ts';

export { parseRobots, type RobotsRules } from '../lib/robots-rules.ts';

const STANDARD = `User-agent: *\nDisallow: /admin/private/\nDisallow: /cgi-bin/\n`;

/** Body served at /robots.txt (or at the redirect's target), or a status for the failing profiles. */
export function robotsText(profile: RobotsProfile): { status: number; body: string; location?: string } {
  switch (profile) {
    case 'standard':
      return { status: 200, body: STANDARD };
    case 'trap-blocked':
      return { status: 200, body: `${STANDARD}Disallow: /events/\nDisallow: /loop/\n` };
    case 'tricky':
      return {
        status: 200,
        body: [
          '# tricky rules: longest match wins, allow wins ties, wildcards, end anchors',
          'User-agent: harness-restricted-bot',
          'Disallow: /',
          '',
          'User-agent: *',
          'Disallow: /admin/',
          'Allow: /admin/forms/',
          'Disallow: /*.jpg$',
          'Disallow: /news/*-1',
          'Allow: /news/*-1$',
          'Disallow: /info/',
          'Allow: /info/',
          'Disallow: /*?sid=',
          '',
        ].join('\n'),
      };
    case 'crawl-delay':
      return { status: 200, body: `${STANDARD}Crawl-delay: 2\n` };
    case 'crawl-delay-long':
      return { status: 200, body: `${STANDARD}Crawl-delay: 60\n` };
    case 'missing':
      return { status: 404, body: 'not found\n' };
    case 'error':
      return { status: 503, body: 'service unavailable\n' };
    case 'redirect':
      return { status: 301, body: '', location: '/robots-moved.txt' };
  }
}

/** The rules that actually apply (what a compliant crawler ends up with). */
export function effectiveRobots(profile: RobotsProfile): { allowAll: boolean; disallowAll: boolean; body: string } {
  if (profile === 'missing') return { allowAll: true, disallowAll: false, body: '' };
  if (profile === 'error') return { allowAll: false, disallowAll: true, body: '' };
  if (profile === 'redirect')
    return { allowAll: false, disallowAll: false, body: `${STANDARD}Disallow: /moved-private/\n` };
  return { allowAll: false, disallowAll: false, body: robotsText(profile).body };
}
