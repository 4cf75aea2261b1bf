// Task cases at scale: one *.cases.yaml of 10,000 cases (tool_calls, tools, answer, steps and budgets each) loaded
// and validated, then 10,000 generated runs (12 tool calls each, one run per case by meta.json task) checked against
// it with checkWorkup. Target (issue 16, within issue 12's score target): load + check under 10 s, peak RSS under
// 500 MB; and (issue 24) the same cost per check at a tenth of the size. The file is read by js-yaml, as a user's
// would be (src/parse/yaml-read.ts).
import { checkWorkup } from '../dist/src/checks/check-workup.js';
import { makeStep, makeTrajectory } from '../dist/src/model/trajectory.js';
import { parseSpec } from '../dist/src/specs/load.js';

const N = Number(process.env.BENCH_N ?? 10_000);
const TOOLS = ['search', 'get_user', 'get_reservation', 'update', 'book', 'cancel', 'list', 'notify'];

let seed = 11;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = (list) => list[Math.floor(rand() * list.length)];

// How a run finds its case: by its meta.json task, or by the case's wildcard pattern (`task-7-*` takes the run
// `task-7-t1`, as a case whose trials are named after it is written).
const ROUTES = ['task', 'wildcard'];

function caseYaml(i, route) {
  const a = pick(TOOLS);
  const b = pick(TOOLS);
  return [
    `  - id: task-${i}`,
    ...(route === 'wildcard' ? [`    workups: ["task-${i}-*"]`] : []),
    `    input: Task number ${i}`,
    '    expect:',
    '      tool_calls:',
    '        match: superset',
    '        args: subset',
    `        calls: [{ name: ${a}, args: { id: ${i % 50} } }, { name: ${b} }]`,
    '      tools:',
    `        must_call: [${a}]`,
    '        must_not_call: [cancel]',
    `        max_calls: { ${b}: 4 }`,
    `        order: [${a}, ${b}]`,
    '      answer:',
    `        contains: "ref-${i % 97}"`,
    '        regex: /ref-\\d+/',
    `        f1: { value: "booked ref-${i % 97}", min: 0.5 }`,
    '      steps:',
    '        max_steps: 30',
    '        max_tool_errors: 1',
    '        max_tokens: 5000',
  ].join('\n');
}

function run(i, route) {
  const steps = [];
  let id = 0;
  for (let k = 0; k < 12; k++) {
    const tool = pick(TOOLS);
    const args = { id: Math.floor(rand() * 50) };
    steps.push(
      makeStep({ step_id: ++id, step_type: 'tool_call', tool_name: tool, tool_input: args, tokens_used: 40 }),
    );
    steps.push(
      makeStep({
        step_id: ++id,
        step_type: 'observation',
        tool_name: tool,
        tool_output: 'ok',
        error: rand() < 0.05 ? 'timeout' : null,
      }),
    );
  }
  const answer = rand() < 0.7 ? `Done: booked ref-${i % 97}.` : 'Sorry, I could not.';
  return {
    id: route === 'wildcard' ? `task-${i}-t1` : `run-${i}`,
    ledger: [],
    trajectory: makeTrajectory({ task_id: `task-${i}`, steps, final_answer: answer, total_tokens: 480 }),
    meta: route === 'wildcard' ? {} : { task: `task-${i}` },
  };
}

/** Loads a spec of `n` cases and checks `n` runs against it, one `checkWorkup` a run, as a user's loop would. */
async function loadAndCheck(n, route) {
  let text = `id: bench\ncases:\n${Array.from({ length: n }, (_, i) => caseYaml(i, route)).join('\n')}\n`;
  const size = text.length;
  globalThis.gc?.();
  const t0 = performance.now();
  const spec = parseSpec(text, 'bench.cases.yaml');
  const loadMs = performance.now() - t0;
  text = undefined;
  // Runs are made 250 at a time (not timed), so peak RSS reflects the spec and the checking, not 10,000 held runs.
  let checks = 0;
  let checkMs = 0;
  const verdicts = { pass: 0, fail: 0, 'not-applicable': 0 };
  for (let start = 0; start < n; start += 250) {
    const workups = Array.from({ length: Math.min(250, n - start) }, (_, i) => run(start + i, route));
    const t = performance.now();
    for (const workup of workups) {
      for (const check of await checkWorkup(workup, [spec])) {
        checks++;
        verdicts[check.verdict]++;
      }
    }
    checkMs += performance.now() - t;
  }
  return { size, spec, loadMs, checkMs, checks, verdicts };
}

const perCheck = (r) => (r.checkMs * 1000) / r.checks;
// For each way a run finds its case, a tenth of the cases first, twice (the first warms the code up): checking must
// cost the same per check at either size (issue 24: linear in cases and runs), which a plan listing every case for
// each run (70-98 us a check at 10,000 cases against 19 at 1,000) and wildcard patterns tested one by one (59 s to
// plan 10,000 cases and runs) did not.
const small = Math.max(1, Math.floor(N / 10));
for (const route of ROUTES) {
  await loadAndCheck(small, route);
  const few = await loadAndCheck(small, route);
  const { size, spec, loadMs, checkMs, checks, verdicts } = await loadAndCheck(N, route);
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    `\nruns found by ${route === 'task' ? 'their meta.json task' : "their case's wildcard pattern"}: cases file ${(size / 1e6).toFixed(1)} MB, ${spec.cases.length} cases (${spec.invalid.length} invalid)`,
  );
  console.log(`load and validate: ${(loadMs / 1000).toFixed(2)} s`);
  console.log(
    `check ${N} runs: ${(checkMs / 1000).toFixed(2)} s, ${checks} checks (${verdicts.pass} pass, ${verdicts.fail} fail, ${verdicts['not-applicable']} n/a), ${perCheck({ checkMs, checks }).toFixed(1)} us per check (${small} cases and runs: ${perCheck(few).toFixed(1)} us)`,
  );
  console.log(`peak RSS: ${rss.toFixed(0)} MB`);
  const total = (loadMs + checkMs) / 1000;
  console.log(`target load + check < 10 s: ${total < 10 ? 'met' : 'MISSED'} (${total.toFixed(2)} s)`);
  console.log(`target peak RSS < 500 MB: ${rss < 500 ? 'met' : 'MISSED'}`);
  const slope = perCheck({ checkMs, checks }) / perCheck(few);
  console.log(
    `target checking's cost per check flat from ${small} to ${N} cases (within 1.5x): ${slope <= 1.5 ? 'met' : 'MISSED'} (${slope.toFixed(2)}x)`,
  );
}
