// Trajectory match on OpenAI chat logs: needlework (fromOpenAIMessages on both logs, then matchTrajectory) against
// LangChain's agentevals JS package (createTrajectoryMatchEvaluator) on the same generated pairs, every mode x
// tool-args mode (target: needlework >= 5x faster, conversion included); and fromOpenAIMessages against the one of
// commit 5ab1319 (before it was made faster), whose src/ is read from the git history and transpiled next to dist/
// (target >= 10x). fromOpenAIMessages builds the steps on their first read, and the match reads only the calls,
// parsing the arguments it compares: the conversion with every step read is printed too, for the full cost.
// Every ratio compares figures measured in this same run. Each side runs in a Node process of its own, as a user's
// would: with agentevals (LangChain, LangSmith, OpenAI's client) loaded in the same process, fromOpenAIMessages ran
// about three times slower when this bench was written (7 -> 25 µs per log, back to back), so timing both in one
// process would charge needlework for agentevals' weight. The
// processes alternate, best of three each, so load on this shared machine falls on both sides alike.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fromOpenAIMessages } from '../dist/src/adapters/openai.js';
import { matchTrajectory } from '../dist/src/metrics/trajectory/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const BASELINE_COMMIT = '5ab1319';
const MODES = ['strict', 'unordered', 'subset', 'superset'];
const ARG_MODES = ['exact', 'ignore', 'subset', 'superset'];
const TOOLS = ['search', 'read', 'weather', 'calc'];
const VALUES = ['Paris', 'Oslo', 'Wren', 2, 3, null];

let seed = 20261122;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

/** A conversation: system, user, 1-4 assistant turns of 1-2 parallel calls each answered by tool messages, answer. */
function conversation() {
  const turns = [];
  const count = 1 + Math.floor(rand() * 4);
  for (let t = 0; t < count; t++) {
    const calls = [];
    const k = 1 + Math.floor(rand() * 2);
    for (let c = 0; c < k; c++)
      calls.push({ name: pick(TOOLS), args: { [pick(['q', 'city', 'n'])]: pick(VALUES) } });
    turns.push({ text: rand() < 0.3 ? 'Let me check.' : null, calls });
  }
  return turns;
}

function messages(turns) {
  const out = [
    { role: 'system', content: 'You are a careful analyst.' },
    { role: 'user', content: 'What is the weather in Paris?' },
  ];
  let id = 0;
  for (const turn of turns) {
    const calls = turn.calls.map((c) => ({
      id: `call_${id++}`,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
    out.push({ role: 'assistant', content: turn.text, tool_calls: calls });
    for (const c of calls)
      out.push({ role: 'tool', tool_call_id: c.id, content: '{"result": "ok", "temp": 21}' });
  }
  out.push({ role: 'assistant', content: 'It is 21 degrees in Paris.' });
  return out;
}

/** Pairs: the reference is the output with its parallel calls reversed half the time, else another conversation. */
const PAIRS = Array.from({ length: 1000 }, () => {
  const turns = conversation();
  const reference =
    rand() < 0.5 ? turns.map((t) => ({ text: t.text, calls: [...t.calls].reverse() })) : conversation();
  return [messages(turns), messages(reference)];
});
const messageCount = PAIRS.reduce((n, [a, b]) => n + a.length + b.length, 0) / (2 * PAIRS.length);

const fmt = (x, digits = 0) =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Wall time of `fn`, in seconds (awaited when it returns a promise). */
async function seconds(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Best (shortest) of `rounds` interleaved timings of each function, in seconds. */
async function interleaved(rounds, fns) {
  const best = fns.map(() => Number.POSITIVE_INFINITY);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < fns.length; i++) best[i] = Math.min(best[i], await seconds(fns[i]));
  }
  return best;
}

const combos = MODES.flatMap((mode) => ARG_MODES.map((toolArgs) => ({ mode, toolArgs })));
const verdictCount = combos.length * PAIRS.length;
const logs = PAIRS.flat();
const side = process.argv[2];

if (side === 'convert') {
  // ── child: fromOpenAIMessages against the baseline from the git history. The baseline's whole src/ is transpiled
  // into a folder of its own, so it shares no function with today's code (shared helpers would see both callers'
  // object shapes and slow both down).
  const { default: ts } = await import('typescript');
  const baselineDir = join(here, `../dist/.bench-baseline-${BASELINE_COMMIT}`);
  let baseline;
  try {
    const git = (...args) =>
      execFileSync('git', args, {
        cwd: join(here, '..'),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        maxBuffer: 1 << 26,
      });
    const files = git('ls-tree', '-r', '--name-only', BASELINE_COMMIT, 'src').split('\n');
    for (const file of files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
      const { outputText } = ts.transpileModule(git('show', `${BASELINE_COMMIT}:${file}`), {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
      });
      const out = join(baselineDir, file.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, outputText);
    }
    baseline = (await import(pathToFileURL(join(baselineDir, 'src/adapters/openai.js')).href))
      .fromOpenAIMessages;
  } catch (error) {
    console.log(JSON.stringify({ error: `not loaded (${error.message.split('\n')[0]})` }));
    process.exit(0);
  } finally {
    rmSync(baselineDir, { recursive: true, force: true });
  }
  const convertAll = (convert) => () => {
    for (const log of logs) convert(log);
  };
  // The steps are built on their first read: this times the conversion with that read, for the full cost.
  const convertAndRead = (log) => fromOpenAIMessages(log).steps;
  convertAll(fromOpenAIMessages)();
  convertAll(baseline)();
  convertAll(convertAndRead)();
  const [ours, theirs, oursRead] = await interleaved(9, [
    convertAll(fromOpenAIMessages),
    convertAll(baseline),
    convertAll(convertAndRead),
  ]);
  console.log(JSON.stringify({ ours, theirs, oursRead }));
} else if (side === 'needlework') {
  const verdicts = () =>
    combos.flatMap((options) =>
      PAIRS.map(
        ([output, reference]) =>
          matchTrajectory(fromOpenAIMessages(output), fromOpenAIMessages(reference), options).pass,
      ),
    );
  const [time] = await interleaved(5, [verdicts]);
  console.log(JSON.stringify({ time, verdicts: verdicts() }));
} else if (side === 'agentevals') {
  const { createTrajectoryMatchEvaluator } = await import('agentevals');
  const evaluators = combos.map(({ mode, toolArgs }) =>
    createTrajectoryMatchEvaluator({ trajectoryMatchMode: mode, toolArgsMatchMode: toolArgs }),
  );
  const verdicts = async () => {
    const out = [];
    for (const evaluator of evaluators) {
      for (const [outputs, referenceOutputs] of PAIRS)
        out.push((await evaluator({ outputs, referenceOutputs })).score);
    }
    return out;
  };
  const [time] = await interleaved(5, [verdicts]);
  console.log(JSON.stringify({ time, verdicts: await verdicts() }));
} else {
  // ── parent: runs the children, alternating, and reports.
  const child = (name) => {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), name], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    if (run.status !== 0) throw new Error(`${name}: ${run.stderr.trim().split('\n').at(-1)}`);
    return JSON.parse(run.stdout.trim().split('\n').at(-1));
  };

  console.log(
    `fromOpenAIMessages on ${fmt(logs.length)} chat logs of ${fmt(messageCount, 1)} messages on average (best of 9)`,
  );
  const convert = child('convert');
  if (convert.error) {
    console.log(`  baseline fromOpenAIMessages of ${BASELINE_COMMIT}: ${convert.error}`);
    console.log('  target >= 10x: MISSED (no baseline to compare with)');
  } else {
    console.log(
      `  now                  ${fmt((convert.ours / logs.length) * 1e6, 2).padStart(8)} µs per log`,
    );
    console.log(
      `  ${BASELINE_COMMIT} (baseline)   ${fmt((convert.theirs / logs.length) * 1e6, 2).padStart(8)} µs per log`,
    );
    console.log(`  speed-up             ${fmt(convert.theirs / convert.ours, 1).padStart(8)} x`);
    console.log(
      `  now, every step read ${fmt((convert.oursRead / logs.length) * 1e6, 2).padStart(8)} µs per log (${fmt(convert.theirs / convert.oursRead, 1)} x; no target: the steps are built on first read)`,
    );
    console.log(`  target >= 10x: ${convert.theirs / convert.ours >= 10 ? 'met' : 'MISSED'}`);
  }

  let ours = Number.POSITIVE_INFINITY;
  let theirs = Number.POSITIVE_INFINITY;
  let disagreements = 0;
  for (let round = 0; round < 3; round++) {
    const a = child('needlework');
    const b = child('agentevals');
    ours = Math.min(ours, a.time);
    theirs = Math.min(theirs, b.time);
    disagreements = a.verdicts.filter((v, i) => v !== b.verdicts[i]).length;
  }
  console.log(
    `\ntrajectory match verdicts on ${fmt(PAIRS.length)} pairs x ${combos.length} mode pairs (${fmt(verdictCount)} verdicts; each side in its own process, best of 3 x 5)`,
  );
  console.log(
    `  needlework, both logs converted  ${fmt((ours / verdictCount) * 1e6, 2).padStart(8)} µs per verdict`,
  );
  console.log(
    `  agentevals (JS package)          ${fmt((theirs / verdictCount) * 1e6, 2).padStart(8)} µs per verdict`,
  );
  console.log(`  ratio agentevals / needlework    ${fmt(theirs / ours, 1).padStart(8)} x`);
  console.log(`  verdicts that differ             ${fmt(disagreements).padStart(8)}`);
  console.log(`  target >= 5x: ${theirs / ours >= 5 ? 'met' : 'MISSED'}`);
}
