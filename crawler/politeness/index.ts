/**
 * The politeness rules beyond the per-host gate, in the order a request passes them: one line
 * each. A new rule is one module (see ./rule.ts for the contract, ./per-ip.ts for an example)
 * and a line here; its settings join the crawl settings from here (crawler/settings.ts).
 */
import type { TProperties } from '@sinclair/typebox';
import { perIp } from './per-ip.ts';
import type { Gate, PolitenessRule, RuleContext } from './rule.ts';

export const RULES = [perIp] as const;

export type { Gate, GateRequest, PolitenessRule, RuleContext, Ticket } from './rule.ts';

type Union = (typeof RULES)[number]['settings'];
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every rule's settings together (none registered: none). */
type RuleSettings = [Union] extends [never] ? Record<never, never> : Intersection<Union>;

/** The rules' settings, for the crawl settings' schema; a name two rules declare is refused here. */
export const RULE_SETTINGS: RuleSettings = (() => {
  const all: TProperties = {};
  for (const rule of RULES as readonly PolitenessRule[])
    for (const [k, v] of Object.entries(rule.settings)) {
      if (k in all) throw new Error(`politeness rule ${rule.name}: setting ${k} is declared twice`);
      all[k] = v;
    }
  return all as RuleSettings;
})();

/** The gates the settings turn on, in registry order. */
export function gatesFor(settings: Record<string, unknown>, ctx: RuleContext): Gate[] {
  const gates: Gate[] = [];
  for (const rule of RULES as readonly PolitenessRule[]) {
    const g = rule.create(settings as never, ctx);
    if (g) gates.push(g);
  }
  return gates;
}
