/** Distributed crawling: partitioning, coordinators (memory, worker threads, Redis) and the crawler process. */
export { HashRing } from './ring.ts';
export { Partitioner, ASSIGNMENTS, type Assignment, type DataCentre, type PartitionOptions } from './partition.ts';
export type { Coordinator, Member, UrlMessage, Delivery, ClaimResult } from './coordinator.ts';
export { MemoryCoordinator } from './memory.ts';
export { RedisCoordinator } from './redis.ts';
export { ThreadCoordinator, serveCoordinator } from './thread.ts';
export { CrawlNode, type NodeOptions, type NodeSummary } from './node.ts';
