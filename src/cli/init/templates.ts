/** Whether the project's `.ts` files are ES modules (`"type": "module"`) or CommonJS (anything else). */
export type ProjectModules = 'esm' | 'cjs';

/** The bundled run `init` copies into the project, so the first `npx vitest run` has a workup to check. */
export const EXAMPLE_WORKUP = { from: 'fixtures/workups/grounded', to: 'workups/example-grounded' } as const;

const NEEDLE = `# yaml-language-server: $schema=../node_modules/needlework/dist/src/schemas/needle.schema.json
# A needle: the answer a correct run must surface, the graph path it must walk to get there, and the facts it must
# cite. This one describes the example run in workups/example-grounded (a made-up task: how are Halberd and Wren
# linked?), and passes on it. Copy it for your agent's task; \`npx needlework validate needles\` checks your edits.
id: example
answer: Compound-Alpha
required_path:
  relations: [MEMBER_OF, CO_LOCATED, CO_LOCATED]
  from: Halberd
  to: Wren
# Every edge of the path: supporting-fact F1 compares the facts a run cites with these.
required_cites:
  - { subject: Halberd, relation: MEMBER_OF, object: Ash Cell }
  - { subject: Ash Cell, relation: CO_LOCATED, object: Compound-Alpha }
  - { subject: Wren, relation: CO_LOCATED, object: Compound-Alpha }
thresholds:
  supporting_fact_f1: 0.8
  pivot_burden: 20
# The runs this needle checks (workup folder names; * matches anything). Without this list it checks every run.
workups: [example-*]
`;

/**
 * The spec files the plugin runs: needles, rubrics and task cases. The config `init` writes and the lines it prints
 * for an existing config both list them from here, so neither leaves a kind out.
 */
export const SPEC_GLOBS = [
  'needles/**/*.needle.yaml',
  'needles/**/*.rubric.yaml',
  'needles/**/*.cases.yaml',
] as const;

/** The plugin line of a Vitest config. */
export const PLUGIN_LINE = `plugins: [needlework({ needles: [${SPEC_GLOBS.map((g) => `'${g}'`).join(', ')}], workups: ['workups'] })],`;

// A task case beside the needle: what any agent's runs are checked with (tool calls, answer, budgets), passing on the
// example run as the needle does.
const CASES = `# yaml-language-server: $schema=../node_modules/needlework/dist/src/schemas/cases.schema.json
# Task cases: for any agent (support, coding, research), what a correct run of each task shows: the tools it calls,
# its answer and its budgets. Every case x assertion is a test. This one describes the example run in
# workups/example-grounded and passes on it; write one case per task of your agent's, and name its runs in
# \`workups\` (or give each run a meta.json with "task": "<case id>").
id: example-tasks
cases:
  - id: link-halberd-wren
    input: How are Halberd and Wren linked?
    workups: [example-grounded]
    expect:
      tools:
        must_call: [graph.neighbors, docs.search]
      answer:
        contains: Compound-Alpha
      steps:
        # Its one failed query (a timeout) was followed by more work: recovered. max_tool_errors: 0 would fail it.
        error_recovery: 1
        max_tool_calls: 12
`;

const VITEST_CONFIG = `import { needlework, needleworkReporters } from 'needlework/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Needles, rubrics and task cases (*.cases.yaml): each file in needles/ is a test file over the runs in workups/.
  ${PLUGIN_LINE}
  test: {
    // On your machine: the terminal, and the results store (.needlework/store, or NEEDLEWORK_STORE) with each run's
    // comparison with the last one. In CI (the CI variable) also needlework-report/junit.xml, report.html and the
    // GitHub job summary; \`npx needlework report\` writes the HTML report of any stored run.
    reporters: needleworkReporters(),
  },
});
`;

// No top-level await: the suite loads the runs inside an async describe, so the same text typechecks as an ES
// module and (named .mts) in a CommonJS project.
const AGENT_TEST = `import { loadWorkups } from 'needlework';
import { describe, expect, it } from 'vitest';

// Hand-written checks with needlework's matchers, beside the YAML specs: every run in workups/ gets these. A check
// that does not apply to a run (no steps recorded, nothing to cite) is skipped for it, never failed.
describe('agent runs', async () => {
  const { workups } = await loadWorkups('workups');
  for (const workup of workups) {
    describe(workup.id, () => {
      // Any run with recorded steps: after a tool error, the agent still acted (1 when there was no error).
      it.skipIf(!workup.trajectory)('recovers from every tool error', () => {
        expect(workup).toRecoverFromErrors(1);
      });

      // Runs that cite a provenance ledger (research agents): a chat log or trace has a note but nothing to cite.
      const cites = workup.note !== undefined && workup.ledger.length > 0;
      it.skipIf(!cites)('cites only ledger entries that exist', () => {
        expect(workup).toHaveResolvableCitations();
      });

      it.skipIf(!cites)('cites every claim', () => {
        expect(workup).toHaveCitationRecall(1);
      });
    });
  }
});
`;

/** The files that do not depend on the project's module kind. */
const OTHER_FILES: Readonly<Record<string, string>> = {
  'workups/README.md': `# Agent runs

Put one folder per agent run here: \`note.md\` (the note, citing \`[cite:g1]\`), \`provenance.jsonl\` (one query a
line) and \`trajectory.json\` (the steps). \`example-grounded\` is a sample run to read, which the example needle and
test check; delete it once your own runs are here. \`npx needlework import <log> --out workups/<name>\` makes one from an
OpenAI chat log or an OpenTelemetry GenAI trace.
`,
  '.github/workflows/needlework.yml': `# yaml-language-server: $schema=https://json.schemastore.org/github-workflow.json
name: needlework
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
      # The run history: set the NEEDLEWORK_STORE secret to a postgres:// URL so it outlives the job (docs/store.md);
      # without it each job starts an empty store in .needlework/store.
      - run: npx vitest run
        env:
          NEEDLEWORK_STORE: \${{ secrets.NEEDLEWORK_STORE }}
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: needlework-report
          path: needlework-report/
`,
};

/**
 * The files `needlework init` writes, by path relative to the project. A CommonJS project gets `.mts` names for the
 * TypeScript files, so they are ES modules whatever its package.json says (Vitest and tsc both read them as such).
 */
export function initFiles(modules: ProjectModules): Readonly<Record<string, string>> {
  const ts = modules === 'esm' ? 'ts' : 'mts';
  return {
    'needles/example.needle.yaml': NEEDLE,
    'needles/example.cases.yaml': CASES,
    [`vitest.config.${ts}`]: VITEST_CONFIG,
    [`test/agent.test.${ts}`]: AGENT_TEST,
    ...OTHER_FILES,
  };
}
