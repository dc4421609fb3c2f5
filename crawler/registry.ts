/**
 * Built-in strategies are found beside their code: a folder's index (crawler/orders/index.ts,
 * crawler/focused/index.ts) asks for every descriptor its modules export (defineStrategy marks
 * them), so adding a built-in is one module and its test, as scikit-learn's all_estimators()
 * finds estimators by walking its modules. The house order is each descriptor's `rank`.
 */
import { readdirSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStrategyDescriptor, type StrategyDescriptor, StrategyError } from './strategy.ts';

/** Descriptors in the house order: by rank (unranked last), then by name. */
export function byRank<D extends StrategyDescriptor<never>>(ds: readonly D[]): D[] {
  return [...ds].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || (a.name < b.name ? -1 : 1));
}

/**
 * Every strategy descriptor exported by the modules beside `indexUrl` (the calling index's
 * import.meta.url), in the house order. Modules of the index's own kind are read (.ts from
 * sources, .js built), not the index itself, declarations or tests. Two descriptors of one name
 * are a StrategyError.
 */
export async function builtInsIn<D extends StrategyDescriptor<never>>(indexUrl: string): Promise<D[]> {
  const index = fileURLToPath(indexUrl);
  const ext = extname(index);
  const dir = new URL('.', indexUrl);
  const modules = readdirSync(dir)
    .filter((f) => f.endsWith(ext) && !f.endsWith(`.d${ext}`) && !f.startsWith('index.') && !f.includes('.test.'))
    .sort();
  const found = new Map<string, D>();
  for (const f of modules) {
    const mod = (await import(new URL(f, dir).href)) as Record<string, unknown>;
    for (const v of Object.values(mod)) {
      if (!isStrategyDescriptor(v)) continue;
      const seen = found.get(v.name);
      if (seen && seen !== v) throw new StrategyError(`two built-in strategies are named "${v.name}" (${f})`);
      found.set(v.name, v as D);
    }
  }
  return byRank([...found.values()]);
}
