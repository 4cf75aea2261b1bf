/** The files `needlework init` writes, by path relative to the project. */
export const INIT_FILES: Readonly<Record<string, string>> = {
  'needles/example.needle.yaml': `# yaml-language-server: $schema=../node_modules/needlework/dist/src/schemas/needle.schema.json
# A needle: the answer a correct run must surface, the graph path it must walk to get there, and the facts it must
# cite. Every workup in workups/ gets a test per criterion. Edit it to match your agent's task.
id: example
answer: Compound-Alpha
required_path:
  relations: [MEMBER_OF, CO_LOCATED, CO_LOCATED]
  from: Halberd
  to: Wren
required_cites:
  - { subject: Halberd, relation: MEMBER_OF, object: Ash Cell }
thresholds:
  supporting_fact_f1: 0.8
  pivot_burden: 20
`,
  'vitest.config.ts': `import { needlework } from 'needlework/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [needlework({ needles: ['needles/**/*.needle.yaml', 'needles/**/*.rubric.yaml'], workups: ['workups'] })],
  test: {
    reporters: [
      'default',
      ['needlework/reporters/junit', { outputFile: 'needlework-report/junit.xml' }],
      ['needlework/reporters/html', { outputFile: 'needlework-report/report.html', trendFile: 'needlework-report/trend.json' }],
      ['needlework/reporters/trend', { outputFile: 'needlework-report/trend.json' }],
    ],
  },
});
`,
  'test/agent.test.ts': `import { loadWorkups } from 'needlework';
import { describe, expect, it } from 'vitest';

// Hand-written checks with needlework's matchers, beside the YAML needles.
const { workups } = await loadWorkups('workups');

describe.each(workups.map((w) => [w.id, w] as const))('%s', (_id, workup) => {
  it('cites only ledger entries that exist', () => {
    expect(workup).toHaveResolvableCitations();
  });

  it('cites every claim', () => {
    expect(workup).toHaveCitationRecall(1);
  });
});
`,
  'workups/README.md': `# Agent runs

Put one folder per agent run here: \`note.md\` (the note, citing \`[cite:g1]\`), \`provenance.jsonl\` (one query a
line) and \`trajectory.json\` (the steps). \`npx needlework import <log> --out workups/<name>\` makes one from an
OpenAI chat log or an OpenTelemetry GenAI trace.
`,
  '.github/workflows/needlework.yml': `name: needlework
on: [push, pull_request]
jobs:
  agent-runs:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      - run: npx vitest run
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: needlework-report
          path: needlework-report/
`,
};
