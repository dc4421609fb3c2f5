import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // one file at a time: several tests measure timing (politeness gaps, Crawl-delay, slow
    // responses) and a CPU-heavy file next to them would distort what the servers observe
    fileParallelism: false,
  },
});
