/**
 * Training data from the synthetic web (composition: sim renders, crawler parses). For
 * leave-one-site-out training a department's pages are rendered and parsed exactly as a crawler
 * would see them, and labelled from ground truth (relevant = research paper), as Rennie &
 * McCallum labelled their training departments. Models are cached on disk per (web config,
 * seed, held-out site, parameters).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_SETTINGS, type ParseCache, parseBody } from '../crawler/index.ts';
import {
  LinkClassifier,
  type ClassifierJson,
  siteExamples,
  siteLinkFeatures,
  trainingExamples,
  trainFutureModel,
  type FutureConfig,
  type LabelledPage,
  type QExample,
  calibrateAdaptive,
  pageTokens,
  type Calibration,
  PageClassifier,
  type PageClassifierJson,
  judgedTokens,
  type DocumentFrequencies,
  documentFrequencies,
} from '../crawler/focused/index.ts';
import { Renderer } from '../sim/content.ts';
import type { Web } from '../sim/web.ts';
import { moduleUrl } from '../lib/paths.ts';
import { closureHash } from '../lib/module-closure.ts';
import { keyedSource } from '../lib/build-stamp.ts';
import { pathSample } from '../lib/graph.ts';

/**
 * The project's root as this module runs (the sources in a clone, the built JavaScript when
 * installed); the keys hash a dist/ built from the sources as those sources (lib/build-stamp.ts
 * keyedSource), so running one or the other finds the same models.
 */
const ROOT_URL = keyedSource(new URL('../', import.meta.url));
const codeUrl = (name: string): URL => keyedSource(moduleUrl(import.meta.url, name));

/**
 * Part of every model's cache key: a hash of the code that trains models, so a change to
 * features, Q-values, Naive Bayes, calibration or parsing (or any file they import) never reuses a
 * model trained by older code. This module's own text counts; its imports through the crawler's
 * index would bring the whole engine, whose changes do not change a model.
 */
const TRAINING_CODE = (() => {
  const h = createHash('sha256');
  h.update(readFileSync(codeUrl('./web-training')));
  const focused = ['features', 'nb', 'qvalue', 'topic', 'tokens', 'training-examples', 'calibrate', 'relevance'];
  const entries = focused.map((f) => codeUrl(`../crawler/focused/${f}`));
  entries.push(codeUrl('../crawler/parser'), codeUrl('../lib/text'));
  closureHash(h, entries, ROOT_URL);
  return h.digest('hex').slice(0, 12);
})();

/** The code that generates and renders a web: sim/web.ts and sim/content.ts with everything they import. */
const WEB_CODE = (() => {
  const h = createHash('sha256');
  closureHash(h, [codeUrl('../sim/web'), codeUrl('../sim/content')], ROOT_URL);
  return h.digest('hex');
})();

/**
 * Identifies a generated web for the model cache: its resolved config (defaults included) and
 * the code that generates and renders it, so a change of either never reuses a stale model.
 */
export function webKey(web: Web): string {
  return createHash('sha256').update(JSON.stringify(web.config)).update(WEB_CODE).digest('hex').slice(0, 16);
}

/** Where a department's pages come from: a renderer, or a server's cache of what it sends (SimServer.page). */
export type PageSource = Pick<Renderer, 'render' | 'url'>;

/**
 * Pages of one department training reads at most. A larger department is read by a sample that
 * keeps the paths to its targets (lib/graph.ts pathSample: the shortest paths from the home page to
 * up to TRAINING_PAGES / 4 targets evenly spaced, the targets those paths' pages link, then the
 * pages nearest the home page). Reading every page made training's time and memory grow with the
 * web, and the crawls beside the data it held slower per page (npm run bench:scale,
 * docs/benchmarks.md); every department of the shipped webs is smaller and is read whole.
 */
export const TRAINING_PAGES = 20_000;

/**
 * A department's pages as a crawler with the default settings reads them, labelled (at most
 * `limit`, see TRAINING_PAGES). With a parse cache, a page that a crawl already parsed (or will
 * parse) the same way is parsed once.
 */
export function sitePages(
  web: Web,
  host: string,
  isTarget = (id: number): boolean => web.isRelevant(id),
  renderer: PageSource = new Renderer(web),
  parses?: ParseCache,
  limit = TRAINING_PAGES,
): LabelledPage[] {
  const site = web.siteByHost(host);
  if (!site) throw new Error(`no site ${host}`);
  const out: LabelledPage[] = [];
  const D = DEFAULT_SETTINGS;
  const ids =
    site.count <= limit
      ? Array.from({ length: site.count }, (_, i) => site.first + i)
      : pathSample(web, site.first, limit, isTarget, site.first, site.first + site.count);
  for (const id of ids) {
    const r = renderer.render(id);
    const url = renderer.url(id);
    const body = (typeof r.body === 'string' ? Buffer.from(r.body) : r.body).subarray(0, D.maxBodyBytes);
    out.push({
      url,
      page: parses
        ? parses.parse(body, r.contentType, url, D, D.aroundWords)
        : parseBody(body, r.contentType, url, D, D.aroundWords),
      relevant: isTarget(id),
    });
  }
  return out;
}

export interface TrainedModels {
  future: LinkClassifier;
  calibration: Calibration;
  /** A fixed, evenly spaced sample of the offline examples (for the adaptive crawler's retraining). */
  examples: QExample[];
  /** The page classifier of the target (relevance "learned", the classifier strategy), trained on the same sites; else null. */
  pages: PageClassifier | null;
  cached: boolean;
}

/** Per web: pages and Q examples of every site, computed once, from a source of labelled pages. */
export class TrainingData {
  private pages = new Map<string, LabelledPage[]>();
  private examples = new Map<string, QExample[]>();
  private tokens = new Map<string, string[][]>();
  /** Every link's feature tokens, per site: the examples' tokens and the calibration's (once, not once per model). */
  private features = new Map<string, string[][][]>();
  /** The document frequencies of each site's page tokens (the calibration's idf, counted once per site). */
  private frequencies = new Map<string, DocumentFrequencies>();
  constructor(
    private readonly pagesOf: (host: string) => LabelledPage[],
    readonly hosts: readonly string[],
    private readonly cfg: FutureConfig,
  ) {}

  /** A site's pages, read once (rendered and parsed: what the judgement and the leak probe read too). */
  private pagesFor(host: string): LabelledPage[] {
    let p = this.pages.get(host);
    if (!p) {
      p = this.pagesOf(host);
      this.pages.set(host, p);
    }
    return p;
  }

  /**
   * A site's pages and what training derives from them, computed when training first asks: with
   * the models on disk (the cache), a job reads pages for its diagnostics only, and deriving every
   * link's features as well cost as much CPU again as reading the pages (node --cpu-prof of the
   * default experiment, issue #70).
   */
  private site(host: string): {
    pages: LabelledPage[];
    examples: QExample[];
    tokens: string[][];
    features: string[][][];
    frequencies: DocumentFrequencies;
  } {
    const pages = this.pagesFor(host);
    if (!this.features.has(host)) {
      const f = siteLinkFeatures(pages);
      const tokens = pages.map(pageTokens);
      this.features.set(host, f);
      this.examples.set(host, siteExamples(pages, this.cfg, f));
      this.tokens.set(host, tokens);
      this.frequencies.set(host, documentFrequencies(tokens));
    }
    return {
      pages,
      examples: this.examples.get(host)!,
      tokens: this.tokens.get(host)!,
      features: this.features.get(host)!,
      frequencies: this.frequencies.get(host)!,
    };
  }

  /** A site's labelled pages as a crawler reads them (evaluator: the judgement's quality on the held-out site). */
  labelled(host: string): readonly LabelledPage[] {
    return this.pagesFor(host);
  }

  /** The future-value model and adaptive thresholds for crawling `heldOut`, trained on the other departments. */
  models(
    heldOut: string,
    keywords: readonly string[],
    cacheDir: string | null,
    cacheKey: string,
    offlineSample = 3000,
    pageClassifier = false,
    /** Formula (1)'s beta the link thresholds are fitted with (the adaptive crawler's sourceWeight). */
    sourceWeight = 0.3,
  ): TrainedModels {
    const others = this.hosts.filter((h) => h !== heldOut);
    const learned = pageClassifier;
    const kw = createHash('sha256').update(keywords.join('\n')).digest('hex').slice(0, 12);
    const key = createHash('sha256')
      .update(
        JSON.stringify({
          cacheKey,
          heldOut,
          others,
          cfg: this.cfg,
          offlineSample,
          kw,
          learned,
          sourceWeight,
          code: TRAINING_CODE,
        }),
      )
      .digest('hex')
      .slice(0, 20);
    const file = cacheDir ? join(cacheDir, `model-${key}.json`) : null;
    if (file && existsSync(file)) return readModels(file);
    const m = this.train(heldOut, others, keywords, offlineSample, learned, sourceWeight);
    if (file) writeModels(file, m);
    return m;
  }

  /** The models trained on `others` (leave-one-site-out for `heldOut`). */
  private train(
    heldOut: string,
    others: string[],
    keywords: readonly string[],
    offlineSample: number,
    learned: boolean,
    sourceWeight: number,
  ): TrainedModels {
    const bySite = new Map(others.map((h) => [h, this.site(h).examples] as const));
    const all = trainingExamples(bySite, heldOut);
    const future = trainFutureModel(all, this.cfg);
    const calibration = calibrateAdaptive(
      others.flatMap((h) => this.site(h).pages),
      future,
      keywords,
      this.cfg.gamma,
      this.cfg.horizon,
      others.flatMap((h) => this.site(h).tokens),
      others.flatMap((h) => this.site(h).features),
      others.map((h) => this.site(h).frequencies),
      sourceWeight,
    );
    const examples = sampleEvenly(all, offlineSample);
    // the target's page classifier, from the same training sites' labelled pages, read as a crawler reads them
    const pages = learned
      ? PageClassifier.train(
          others.flatMap((h) =>
            this.site(h).pages.map((p) => ({
              url: p.url,
              kind: p.page.kind,
              tokens: judgedTokens(p.page),
              relevant: p.relevant,
              site: h,
            })),
          ),
        )
      : null;
    return { future, calibration, examples, pages, cached: false };
  }
}

/** The cache holds what a crawl needs: the classifiers, the thresholds and the offline sample. */
function readModels(file: string): TrainedModels {
  const j = JSON.parse(readFileSync(file, 'utf8')) as {
    model: ClassifierJson;
    calibration: Calibration;
    examples: QExample[];
    pages: PageClassifierJson | null;
  };
  return {
    future: LinkClassifier.fromJSON(j.model),
    calibration: j.calibration,
    examples: j.examples,
    pages: j.pages ? PageClassifier.fromJSON(j.pages) : null,
    cached: true,
  };
}

/**
 * Written aside and renamed: processes running side by side (sweep points, queue workers) read a
 * model whole or not at all.
 */
function writeModels(file: string, m: TrainedModels): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(
    tmp,
    JSON.stringify({
      model: m.future.toJSON(),
      calibration: m.calibration,
      examples: m.examples,
      pages: m.pages?.toJSON() ?? null,
    }),
  );
  renameSync(tmp, file);
}

function sampleEvenly<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  const step = xs.length / n;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(i * step)]);
}
