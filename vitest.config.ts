import { defineConfig } from 'vitest/config';

// Tests run against the built packages (npm test builds first): piscina and the ledger load
// their worker files from dist.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'bench/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
