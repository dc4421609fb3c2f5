/**
 * The politeness rules beyond the per-host gate, a line each: a new rule is one module (the
 * contract: ./rule.ts; an example: ./per-ip.ts) and its line here. A request passes their gates in
 * the order of these names (one order for every request, so no two requests wait on each other).
 */
export { perIp } from './per-ip.ts';
