/** Distributed crawling: partitioning, coordinators (memory, worker threads, Redis) and the crawler process. */
export { HashRing } from './ring.ts';
export { Partitioner, ASSIGNMENTS, type Assignment, type DataCentre, type PartitionOptions } from './partition.ts';
export type { Coordinator, Member, UrlMessage, Delivery, ClaimResult } from './coordinator.ts';
export { MemoryCoordinator } from './local-coordinator.ts';
export { RedisCoordinator } from './redis-coordinator.ts';
export { ThreadCoordinator, serveCoordinator } from './thread.ts';
export { CrawlNode, type NodeOptions, type NodeSummary } from './node.ts';
