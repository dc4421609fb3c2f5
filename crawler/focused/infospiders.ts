/**
 * InfoSpiders (Menczer & Belew, "Adaptive retrieval agents", Machine Learning 2000; the
 * evolutionary crawler of Menczer, Pant & Srinivasan, ACM TOIT 2004): a population of agents,
 * each with its own link scorer, living on the energy that relevant pages give them.
 *
 * Agent a scores a link l with a one-layer neural net over the link's words,
 *   out_a(l) = sigmoid(w_a . x(l) + b_a),
 *   x(l) = [cos(q, anchor), cos(q, words around), cos(q, source page), one input per word of the
 *           agent's own keyword list: 1 in the anchor, 0.5 around it, else 0],
 * and picks the next link with probability proportional to exp(beta out_a(l)) (Boltzmann
 * selection). With one shared frontier the selection is the Gumbel-max form of the same
 * distribution: priority(l) = beta out_a(l) + G(l), G a Gumbel draw seeded by the crawl seed and
 * the URL, so the order is deterministic for a seed.
 * The agent that owned the link of a fetched page p:
 * - gains energy e(p) - cost x mean e, e(p) the crawler's relevance judgement of p (relevance.ts)
 *   and mean e its mean over the pages fetched so far: an agent gains where it finds better than
 *   average pages (a constant cost would have to be calibrated to each target's judgement);
 * - learns (Q-learning, as InfoSpiders do): the net's output for the followed link moves toward
 *   e(p) + mu max_l' out_a(l') over p's links, by one gradient step of rate eta;
 * - reproduces when its energy exceeds theta (population below its cap): the offspring takes
 *   half the energy, a copy of the net with seeded noise, and the parent's keywords plus the
 *   most frequent word of p not yet among them (query expansion by local selection);
 * - dies when its energy falls to 0: its queued links drop below every live agent's (still
 *   fetched when nothing else is left, where a dead agent's own frontier would be lost).
 *
 * Parameters (conditions of this harness, configurable; Menczer et al. tuned theirs to their
 * own benefit function): agents 4 at the start, cap 32, energy 1 at birth, cost 1 x mean benefit,
 * theta 2, beta 5, eta 0.1, mu 0.5, mutation noise 0.1.
 */
import { fingerprint } from '../url.ts';
import type { ParsedLink } from '../parser.ts';
import { defineStrategy, LINKS_SCORED, type PageDecision, type PageView, type Strategy } from '../strategy.ts';
import { type StrategyContext, topicOf } from './context.ts';
import { PAPER_JUDGE, type RelevanceJudge } from './relevance.ts';
import { judgePage } from './immediate-future.ts';
import { counts, tokenize } from '../../lib/text.ts';
import type { Topic } from './topic.ts';

export interface InfoSpidersOptions {
  agents: number;
  maxAgents: number;
  energy: number;
  cost: number;
  theta: number;
  beta: number;
  eta: number;
  mu: number;
  noise: number;
  seed: number;
}
export const DEFAULT_INFOSPIDERS: InfoSpidersOptions = {
  agents: 4,
  maxAgents: 32,
  energy: 1,
  cost: 1,
  theta: 2,
  beta: 5,
  eta: 0.1,
  mu: 0.5,
  noise: 0.1,
  seed: 1,
};

/** Fixed inputs before the keyword inputs. */
const BASE_INPUTS = 3;

interface Agent {
  id: number;
  energy: number;
  weights: number[];
  bias: number;
  keywords: string[];
  alive: boolean;
}
interface Owned {
  agent: number;
  x: number[];
  out: number;
}

/** Output that ranks a dead agent's links below every live agent's. */
const DEAD = -1000;

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export class InfoSpidersStrategy implements Strategy {
  readonly name = 'infospiders';
  private readonly agents: Agent[] = [];
  /** Owner, inputs and output of every queued link, until it is fetched. */
  private readonly owned = new Map<string, Owned>();
  private nextSeedAgent = 0;
  private benefit = { sum: 0, pages: 0 };
  private readonly counters = { linksScored: 0, births: 0, deaths: 0, agents: 0 };

  constructor(
    private readonly topic: Topic,
    private readonly o: InfoSpidersOptions = DEFAULT_INFOSPIDERS,
    private readonly judge: RelevanceJudge = PAPER_JUDGE,
  ) {
    for (let i = 0; i < o.agents; i++)
      this.agents.push({ id: i, energy: o.energy, weights: [1, 0.5, 0.5], bias: -0.5, keywords: [], alive: true });
  }

  /** A seeded uniform in (0, 1) for a key. */
  private uniform(key: string): number {
    const [a, b] = fingerprint(`${this.o.seed}:${key}`);
    return (((a ^ Math.imul(b, 0x9e3779b1)) >>> 0) + 0.5) / 4294967296;
  }

  private priority(out: number, url: string): number {
    return this.o.beta * out - Math.log(-Math.log(this.uniform(url)));
  }

  seedScore(url: string): number {
    // the seeds are shared out among the first agents
    const a = this.agents[this.nextSeedAgent++ % this.agents.length];
    this.owned.set(url, { agent: a.id, x: [], out: 0.5 });
    return Number.MAX_VALUE;
  }

  private inputs(agent: Agent, l: ParsedLink, pageSim: number): number[] {
    const anchor = tokenize(l.anchor);
    const around = tokenize(l.around);
    const x = [this.topic.similarity(anchor), this.topic.similarity(around), pageSim];
    for (const k of agent.keywords) x.push(anchor.includes(k) ? 1 : around.includes(k) ? 0.5 : 0);
    return x;
  }

  private output(agent: Agent, x: readonly number[]): number {
    if (x.length !== agent.weights.length)
      throw new Error(`infospiders: agent ${agent.id} has ${agent.weights.length} weights for ${x.length} inputs`);
    let z = agent.bias;
    for (let i = 0; i < x.length; i++) z += agent.weights[i] * x[i];
    return sigmoid(z);
  }

  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const j = judgePage(this.topic, this.judge, page);
    const mine = this.owned.get(page.url);
    this.owned.delete(page.url);
    // a page without a known owner (reached by a redirect): the live agent with the most energy
    let agent = mine ? this.agents[mine.agent] : undefined;
    if (!agent?.alive) agent = this.agents.filter((a) => a.alive).sort((a, b) => b.energy - a.energy || a.id - b.id)[0];
    const updates: { url: string; score: number }[] = [];
    if (!agent) return { relevance: j.relevance, scores: candidates.map((l) => this.priority(DEAD, l.url)) };
    const xs = candidates.map((l) => this.inputs(agent, l, j.similarity));
    const outs = xs.map((x) => this.output(agent, x));
    // learning: the followed link's output toward e(p) + mu max out(l'), by the agent that chose
    // the link only. A dead owner's page is adopted by another agent, whose net may have fewer
    // inputs than the owner's x (an offspring has one per keyword it inherited or added): it
    // learns nothing from a move it did not make (once it did, weights[i] undefined made NaN).
    if (mine?.x.length && mine.agent === agent.id) {
      const target = j.relevance + this.o.mu * (outs.length ? Math.max(...outs) : 0);
      const y = this.output(agent, mine.x);
      const g = this.o.eta * (Math.min(1, target) - y) * y * (1 - y);
      for (let i = 0; i < mine.x.length && i < agent.weights.length; i++) agent.weights[i] += g * mine.x[i];
      agent.bias += g;
    }
    this.benefit.sum += j.relevance;
    this.benefit.pages++;
    agent.energy += j.relevance - this.o.cost * (this.benefit.sum / this.benefit.pages);
    if (agent.energy > this.o.theta && this.agents.filter((a) => a.alive).length < this.o.maxAgents)
      this.reproduce(agent, j.tokens);
    if (agent.energy <= 0) {
      agent.alive = false;
      this.counters.deaths++;
      for (const [url, w] of this.owned)
        if (w.agent === agent.id) updates.push({ url, score: this.priority(DEAD, url) });
    }
    this.counters.linksScored += candidates.length;
    candidates.forEach((l, i) => this.owned.set(l.url, { agent: agent.id, x: xs[i], out: outs[i] }));
    const scores = outs.map((out, i) => this.priority(agent.alive ? out : DEAD, candidates[i].url));
    return { relevance: j.relevance, scores, updates };
  }

  private reproduce(parent: Agent, tokens: readonly string[]): void {
    parent.energy /= 2;
    const id = this.agents.length;
    const noise = (k: number): number => (this.uniform(`mutate:${id}:${k}`) - 0.5) * 2 * this.o.noise;
    // the most frequent word of the page that is not yet a keyword (ties: alphabetical)
    let best = '';
    let n = 0;
    for (const [w, c] of counts(tokens))
      if (!parent.keywords.includes(w) && (c > n || (c === n && w < best))) {
        best = w;
        n = c;
      }
    const keywords = best ? [...parent.keywords, best] : [...parent.keywords];
    const weights = parent.weights.map((w, k) => w + noise(k));
    while (weights.length < BASE_INPUTS + keywords.length) weights.push(0.5 + noise(weights.length));
    this.agents.push({ id, energy: parent.energy, weights, bias: parent.bias + noise(-1), keywords, alive: true });
    this.counters.births++;
  }

  stats(): Record<string, number> {
    return { ...this.counters, agents: this.agents.filter((a) => a.alive).length };
  }
}

export const INFOSPIDERS = defineStrategy({
  name: 'infospiders',
  rank: 100,
  summary: 'InfoSpiders (Menczer & Belew 2000): agents with energy and neural link estimators',
  params: {
    agents: { default: DEFAULT_INFOSPIDERS.agents, min: 1, integer: true, help: 'agents at the start' },
    maxAgents: { default: DEFAULT_INFOSPIDERS.maxAgents, min: 1, integer: true, help: 'the population cap' },
    energy: { default: DEFAULT_INFOSPIDERS.energy, min: 0, help: "an agent's energy at birth" },
    cost: { default: DEFAULT_INFOSPIDERS.cost, min: 0, help: "a page's cost, times the mean benefit so far" },
    theta: { default: DEFAULT_INFOSPIDERS.theta, min: 0, help: 'energy above which an agent reproduces' },
    beta: { default: DEFAULT_INFOSPIDERS.beta, min: 0, help: 'Boltzmann selectiveness of the link choice' },
    eta: { default: DEFAULT_INFOSPIDERS.eta, min: 0, max: 1, help: 'learning rate of the Q-learning step' },
    mu: { default: DEFAULT_INFOSPIDERS.mu, min: 0, max: 1, help: 'discount of the next links in the Q target' },
    noise: { default: DEFAULT_INFOSPIDERS.noise, min: 0, help: "mutation noise of an offspring's weights" },
  },
  counters: {
    ...LINKS_SCORED,
    births: 'agents born',
    deaths: 'agents that ran out of energy',
    agents: 'agents alive at the end',
  },
  reads: 'topic',
  settings: [],
  style: ['#882255', [4, 4]],
  make: (ctx: StrategyContext, p) =>
    new InfoSpidersStrategy(
      topicOf(ctx, 'infospiders'),
      { ...DEFAULT_INFOSPIDERS, ...p, seed: ctx.seed },
      ctx.judge?.(),
    ),
});
