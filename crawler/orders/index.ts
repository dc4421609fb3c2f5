/**
 * Orders that read no topic (OPIC, documents first): the built-ins of this folder, found by
 * their descriptors (crawler/registry.ts); a new one is its module.
 */
import { builtInsIn } from '../registry.ts';
import type { StrategyDescriptor } from '../strategy.ts';

export { DOCS_FIRST, DocsFirstStrategy } from './docs-first.ts';
export { DOCS_SHARE, DocsShareStrategy } from './docs-share.ts';
export { OPIC, OpicStrategy } from './opic.ts';

/** Every descriptor this folder's modules export, in the house order. */
export const ORDER_STRATEGIES: readonly StrategyDescriptor[] = await builtInsIn(import.meta.url);
