// The peer workload (issue 24): N task cases, each with one recorded run of 8 tool calls. Each case expects its calls
// in order and in any order, and an exact answer. One case in 10 has two calls swapped in its run, one a wrong
// argument, one a wrong answer. The same generator feeds needlework and each peer, so their verdicts can be compared.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const TOOLS = ['search', 'get_user', 'get_reservation', 'update', 'book', 'cancel', 'list', 'notify'];

/** Case i: its expected calls (name and args), its expected answer, and the run the agent recorded. */
export function makeCase(i) {
  const calls = Array.from({ length: 8 }, (_, k) => ({
    name: TOOLS[(i + k * 3) % TOOLS.length],
    args: { id: `r${(i * 7 + k) % 1000}` },
  }));
  const answer = `Booked reservation R${i}.`;
  const ran = calls.map((c) => ({ name: c.name, args: { ...c.args } }));
  let given = answer;
  const flaw = i % 10;
  // Swapping two calls of one tool name would change nothing: swap two calls whose names differ.
  if (flaw === 1) [ran[2], ran[5]] = [ran[5], ran[2]];
  if (flaw === 2) ran[3].args.id = 'wrong';
  if (flaw === 3) given = `Booked reservation R${i + 1}.`;
  return { id: `case-${i}`, calls, answer, run: { calls: ran, answer: given } };
}

/** The verdicts every tool must reach on case i: in order, any order, exact answer. */
export function expectedVerdicts(i) {
  const flaw = i % 10;
  return { strict: flaw !== 1 && flaw !== 2, unordered: flaw !== 2, answer: flaw !== 3 };
}

/** The run as a workup folder's trajectory.json (seed 002's `AgentTrajectory`, as `dataclasses.asdict` writes it). */
export function trajectoryJson(c) {
  let id = 0;
  const steps = [];
  for (const call of c.run.calls) {
    steps.push(step(++id, 'tool_call', { tool_name: call.name, tool_input: call.args }));
    steps.push(step(++id, 'observation', { tool_name: call.name, tool_output: { ok: true } }));
  }
  steps.push(step(++id, 'answer', { content: c.run.answer }));
  return { task_id: c.id, task_input: `Task ${c.id}`, steps, final_answer: c.run.answer, metadata: {} };
}

function step(step_id, step_type, fields) {
  return {
    step_id,
    step_type,
    content: '',
    tool_name: null,
    tool_input: null,
    tool_output: null,
    timestamp: null,
    latency_ms: 1,
    tokens_used: 10,
    error: null,
    ...fields,
  };
}

/** The needlework specs of n cases: `bench.cases.yaml` (in order, and the answer) and `bench-unordered.cases.yaml`. */
export function needleworkSpecs(n) {
  const lines = ['id: bench', 'cases:'];
  for (let i = 0; i < n; i++) {
    const c = makeCase(i);
    const calls = c.calls.map((x) => `{ name: ${x.name}, args: { id: ${x.args.id} } }`).join(', ');
    lines.push(
      `  - id: ${c.id}`,
      '    expect:',
      '      tool_calls:',
      '        match: strict',
      `        calls: [${calls}]`,
      '      answer:',
      `        equals: "${c.answer}"`,
    );
  }
  // The any-order match is a second data set over the same runs, as a user would declare a second assertion of one
  // kind (a case holds one tool_calls assertion).
  const unordered = lines
    .join('\n')
    .replace('id: bench', 'id: bench-unordered')
    .replace(/match: strict/g, 'match: unordered');
  return {
    'bench.cases.yaml': `${lines.join('\n')}\n`,
    'bench-unordered.cases.yaml': `${unordered.replace(/\n {6}answer:\n {8}equals: "[^"]*"/g, '')}\n`,
  };
}

/** A needlework project of n cases: `needles/bench.cases.yaml` and one workup folder per run. */
export async function writeNeedleworkProject(dir, n) {
  await mkdir(join(dir, 'needles'), { recursive: true });
  for (const [name, text] of Object.entries(needleworkSpecs(n)))
    await writeFile(join(dir, 'needles', name), text);
  for (let i = 0; i < n; i++) {
    const c = makeCase(i);
    const folder = join(dir, 'workups', c.id);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'trajectory.json'), JSON.stringify(trajectoryJson(c)));
    await writeFile(join(folder, 'meta.json'), JSON.stringify({ task: c.id }));
  }
}
