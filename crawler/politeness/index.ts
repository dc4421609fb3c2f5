/**
 * The politeness rules of ./registry.ts, a line each there, and what the crawler takes from them:
 * their settings, which join the crawl settings (crawler/settings.ts), and the gates those settings
 * turn on, which every request passes after its host's slot (crawler/polite.ts).
 */
import type { TProperties } from '@sinclair/typebox';
import * as registered from './registry.ts';
import type { Gate, PolitenessRule, RuleContext } from './rule.ts';

/**
 * Every rule, ordered by its name. Explicitly: the order of a module namespace's values differs
 * between runners (Node sorts the export names, vitest keeps the declaration order), and the gates
 * must run in one order under test and in use.
 */
export const RULES: readonly PolitenessRule[] = Object.values(registered as Record<string, PolitenessRule>).sort(
  (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
);

export type { Gate, GateRequest, PolitenessRule, RuleContext, Ticket } from './rule.ts';

type Union = (typeof registered)[keyof typeof registered]['settings'];
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every rule's settings together (none registered: none). */
type RuleSettings = [Union] extends [never] ? Record<never, never> : Intersection<Union>;

/** The rules' settings, for the crawl settings' schema; a name two rules declare is refused here. */
export const RULE_SETTINGS: RuleSettings = (() => {
  const all: TProperties = {};
  for (const rule of RULES)
    for (const [k, v] of Object.entries(rule.settings)) {
      if (k in all) throw new Error(`politeness rule ${rule.name}: setting ${k} is declared twice`);
      all[k] = v;
    }
  return all as RuleSettings;
})();

/** The gates the settings turn on, in the order of the rules' registered names. */
export function gatesFor(settings: Record<string, unknown>, ctx: RuleContext): Gate[] {
  const gates: Gate[] = [];
  for (const rule of RULES) {
    const g = rule.create(settings as never, ctx);
    if (g) gates.push(g);
  }
  return gates;
}
