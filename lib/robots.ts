/**
 * robots-parser behind one typed entry point, for the crawler (what it may fetch) and the
 * synthetic web's audit (what it saw disallowed). The package's bundled types do not resolve
 * under NodeNext, hence the require and the declared interface of the parts we use.
 */
import { createRequire } from 'node:module';

export interface RobotsRules {
  isAllowed(url: string, ua?: string): boolean | undefined;
  isDisallowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}

/** Parses a robots.txt served at `url`. */
export const parseRobots = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  text: string,
) => RobotsRules;
