/**
 * At most perIpConcurrency requests in flight per IP address, over all the hosts whose
 * connections go to it: a server holding a thousand virtual hosts is one server (Heritrix queues
 * hosts by IP for the same reason). Off (0) by default: the synthetic web serves every site from
 * one loopback address, where the per-host gate is the politeness the experiments state.
 * Requests wait first come, first served; a released slot goes straight to the next waiter.
 */
import { num } from '../../lib/schema.ts';
import { defineRule, type Gate, type GateRequest, type RuleContext, type Ticket } from './rule.ts';

interface Slot {
  inFlight: number;
  waiters: ((granted: boolean) => void)[];
}

class PerIpGate implements Gate {
  private readonly slots = new Map<string, Slot>();
  /** Each host's address, looked up once per crawl. */
  private readonly addresses = new Map<string, Promise<string>>();
  private halted = false;

  constructor(
    private readonly max: number,
    private readonly ctx: RuleContext,
  ) {}

  async acquire({ host, url }: GateRequest): Promise<Ticket | null> {
    let address = this.addresses.get(host);
    if (!address) this.addresses.set(host, (address = this.ctx.addressOf(url)));
    const ip = await address;
    if (this.halted) return null;
    let slot = this.slots.get(ip);
    if (!slot) this.slots.set(ip, (slot = { inFlight: 0, waiters: [] }));
    if (slot.inFlight < this.max) slot.inFlight++;
    else if (!(await new Promise<boolean>((resolve) => slot.waiters.push(resolve)))) return null;
    const held = slot;
    return {
      release: () => {
        const next = held.waiters.shift();
        if (next) next(true);
        else held.inFlight--;
      },
    };
  }

  halt(): void {
    this.halted = true;
    for (const slot of this.slots.values()) for (const w of slot.waiters.splice(0)) w(false);
  }
}

export const perIp = defineRule({
  name: 'per-ip',
  settings: {
    perIpConcurrency: num({
      default: 0,
      min: 0,
      max: 1000,
      integer: true,
      flag: 'per-ip',
      help: 'requests in flight per IP address over all its hosts (Heritrix queues by IP); 0: no limit',
    }),
  },
  create: (s, ctx) => (s.perIpConcurrency > 0 ? new PerIpGate(s.perIpConcurrency, ctx) : null),
  strictest: { perIpConcurrency: 1 },
});
