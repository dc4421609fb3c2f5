/**
 * The contract of a politeness rule beyond the per-host gate (crawler/hosts.ts: slots, gap,
 * Crawl-delay, AutoThrottle, back-off). A rule is a gate every request passes, robots.txt's
 * included, after its host granted a slot and before it is sent; its ticket is released with the
 * response (or null: none came). A rule declares its settings, which join the crawl settings
 * (defaults, ranges, help, the crawl CLI's flags and schemas/crawl.schema.json derive from them),
 * and builds its gate for a crawl, or none when its settings turn it off. Rules are registered,
 * one line each, in ./index.ts; the engine and the deep-web form client both send through them
 * (crawler/polite.ts).
 */
import type { ResponseMark } from '../hosts.ts';
import type { Static, TObject, TProperties } from '@sinclair/typebox';

/** What a gate is told of a request. */
export interface GateRequest {
  /** The URL's host (with its port when it has one), as the per-host gate names it. */
  host: string;
  url: string;
}

export interface Ticket {
  /** The request is over: its response, or null when none came (a network error). */
  release(res: ResponseMark | null): void;
}

export interface Gate {
  /** Waits until the request may be sent; null: the crawl is stopping (no ticket was taken). */
  acquire(req: GateRequest): Promise<Ticket | null>;
  /** The crawl stops: waiting requests get null at once, none is admitted any more. */
  halt(): void;
}

/** What the crawl gives a rule's gate. */
export interface RuleContext {
  /**
   * The address a URL's connections go to (a resolve rule, else DNS); its host name itself when
   * that cannot be known (a lookup that fails, a dispatcher the caller built).
   */
  addressOf(url: string): Promise<string>;
}

export interface PolitenessRule<P extends TProperties = TProperties> {
  /** Names the rule in errors and docs. */
  name: string;
  /** The rule's crawl settings (lib/schema.ts fields), each declared here and nowhere else. */
  settings: P;
  /** The gate for one crawl, or null when the settings turn the rule off. */
  create(settings: Static<TObject<P>>, ctx: RuleContext): Gate | null;
  /**
   * Settings that turn the rule on at its strictest, for the conformance test (./rules.test.ts):
   * tickets released free what they took, and a halted gate answers every request, waiting or new.
   */
  strictest: Partial<Static<TObject<P>>>;
}

/** Declares a rule with its settings' types inferred from their declaration. */
export function defineRule<P extends TProperties>(rule: PolitenessRule<P>): PolitenessRule<P> {
  return rule;
}
