import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The matchers, registered as a user's `setupFiles: ['needlework/vitest']` would.
    setupFiles: ['./src/vitest/setup.ts'],
    // End-to-end tests start real Vitest runs, browsers and child processes: give them room on 2-core machines.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
