import { needlework } from 'needlework/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    needlework({
      // Every needle here becomes a test file: a describe per workup, an it per criterion.
      needles: ['needles/*.needle.yaml'],
      // The runs to check: the bundled fixture world's well-behaved runs.
      workups: ['../fixtures/workups/grounded', '../fixtures/workups/cross-store-*'],
    }),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    reporters: [
      'default',
      ['needlework/reporters/junit', { outputFile: 'reports/junit.xml' }],
      ['needlework/reporters/html', { outputFile: 'reports/report.html' }],
      'needlework/reporters/trend',
    ],
  },
});
