import { cac } from 'cac';
import { UsageError } from '../errors/index.js';
import { version } from '../version.js';
import { NEEDLEWORK_REPORTERS } from './commands/run-reporters.js';
import type { Io } from './io.js';
import { numberOption, single, wholeNumber } from './options.js';

const NEEDLEWORK_REPORTER_NAMES = NEEDLEWORK_REPORTERS.join(', ');

/** The regression gate's flags, each checked as a number (its range is checked by the gate). */
function gateNumbers(options: Record<string, unknown>) {
  const level = numberOption(options, 'level');
  const tolerance = numberOption(options, 'tolerance');
  const relativeTolerance = numberOption(options, 'relativeTolerance');
  return {
    ...(level !== undefined && { level }),
    ...(tolerance !== undefined && { tolerance }),
    ...(relativeTolerance !== undefined && { relativeTolerance }),
  };
}

/**
 * Builds the `needlework` command line. Each command lazy-imports its implementation, so `--help` stays fast, and
 * records its exit code in `result.code` (0 clean, 1 a failed check or bad input, 2 a usage error).
 */
export function createCli(io: Io, result: { code: number } = { code: 0 }) {
  const cli = cac('needlework');

  cli
    .command('validate [...paths]', 'Check needle and rubric specs (and workups) against their schemas')
    .example('needlework validate needles/')
    .example('needlework validate needles fixtures/workups')
    .action(async (paths: string[]) => {
      const { runValidate } = await import('./commands/validate.js');
      result.code = await runValidate({ paths: paths.length > 0 ? paths : ['needles'] }, io);
    });

  cli
    .command('run [...workups]', 'Run every needle and rubric spec against every workup as Vitest tests')
    .option('--needles <glob>', 'Spec files, folders or globs (repeatable; default: needles)')
    .option(
      '--workups <glob>',
      'Workup folders, files or globs (repeatable; default: the arguments, else workups)',
    )
    .option('--reporter <name>', `A Vitest reporter or one of ${NEEDLEWORK_REPORTER_NAMES} (repeatable)`)
    .option('--out-dir <dir>', 'Where the needlework reporters write (default: needlework-report)')
    .option('--watch', 'Re-run when a spec or workup changes')
    .option('--ui', 'Open the Vitest UI (needs @vitest/ui)')
    .option('--shard <i/n>', "Run only this shard of the tests (Vitest's --shard)")
    .option('--bail <n>', 'Stop after n failed tests')
    .option('--merge-reports [dir]', 'Report the blobs of sharded runs (default folder: .vitest-reports)')
    .option('--entail', 'Check citation precision with a local NLI model')
    .option(
      '--nli-model, --model <dir|hf:owner/name>',
      'The NLI model for --entail (default: NEEDLEWORK_NLI_MODEL; --model is its old name)',
    )
    .option('--no-cache', 'Score entailment without the cache')
    .option('--no-spec-cache', 'Parse every spec file anew, without the spec cache')
    .option(
      '--judge <url|replay:file>',
      'The LLM judge for rubric specs (rubric tests are skipped without one)',
    )
    .option('--samples <n>', 'Judge samples per rubric criterion (default 3)')
    .option(
      '--timeout <ms>',
      'Time allowed per judge request; rubric tests wait for its retries (default 60000)',
    )
    .option(
      '--store <dir|url>',
      'The results store: a folder or postgres:// URL (default: NEEDLEWORK_STORE, else .needlework/store)',
    )
    .option(
      '--baseline <store|file>',
      'Fail when a metric regressed against the latest run of this store or trend.json',
    )
    .option('--fail-on-regression', 'Fail when a metric regressed against the previous run')
    .option('--level <p>', 'The significance level of the regression gate (default 0.05)')
    .option('--tolerance <x>', 'Gate on a fixed tolerance instead: how far a [0, 1] score may fall (0.02)')
    .option('--relative-tolerance <x>', 'Gate on a fixed relative tolerance for metrics with a unit (0.1)')
    .example('needlework run fixtures/workups')
    .example('needlework run runs/ --needles specs/ --reporter default --reporter needlework-junit')
    .example('needlework run runs/ --entail --nli-model ./nli-model --judge replay:judge.cassette.json')
    .action(async (workups: string[], options: Record<string, unknown>) => {
      const { runRun } = await import('./commands/run.js');
      if (options['ui'] === true) {
        const { requireVitestUi } = await import('./commands/run-reporters.js');
        requireVitestUi('--ui', [process.cwd()]);
      }
      const many = (value: unknown): string[] =>
        (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
      const reporters = many(options['reporter']);
      const bail = wholeNumber(options, 'bail');
      const samples = wholeNumber(options, 'samples');
      const timeoutMs = wholeNumber(options, 'timeout');
      const outDir = single(options, 'outDir', 'folder');
      const shard = single(options, 'shard', '<index>/<count>');
      for (const [name, what] of [
        ['model', 'model'],
        ['judge', 'judge'],
        ['baseline', 'store or trend.json'],
      ] as const)
        single(options, name, what);
      const store = single(options, 'store', 'store');
      result.code = await runRun(
        {
          needles: many(options['needles']).length > 0 ? many(options['needles']) : ['needles'],
          workups:
            [...workups, ...many(options['workups'])].length > 0
              ? [...workups, ...many(options['workups'])]
              : ['workups'],
          reporters:
            reporters.length > 0
              ? reporters
              : ['default', 'needlework-junit', 'needlework-html', 'needlework-trend'],
          outDir: outDir ?? 'needlework-report',
          watch: options['watch'] === true,
          ui: options['ui'] === true,
          specCache: options['specCache'] !== false,
          ...(shard !== undefined && { shard }),
          ...(bail !== undefined && { bail }),
          ...(options['mergeReports'] !== undefined && {
            mergeReports:
              typeof options['mergeReports'] === 'string' ? options['mergeReports'] : '.vitest-reports',
          }),
          ...(options['entail'] === true && {
            entail: {
              ...(typeof options['nliModel'] === 'string' && { model: options['nliModel'] }),
              cache: options['cache'] !== false,
            },
          }),
          ...(typeof options['judge'] === 'string' && { judge: options['judge'] }),
          ...(samples !== undefined && { samples }),
          ...(timeoutMs !== undefined && { timeoutMs }),
          ...(typeof options['baseline'] === 'string' && { baseline: options['baseline'] }),
          ...(store !== undefined && { store }),
          failOnRegression: options['failOnRegression'] === true,
          gate: gateNumbers(options),
        },
        io,
      );
    });

  cli
    .command(
      'init [dir]',
      'Add needlework to a project: a needle, a Vitest config, an example test, a CI workflow',
    )
    .example('needlework init')
    .action(async (dir: string | undefined) => {
      const { runInit } = await import('./commands/init.js');
      result.code = await runInit({ dir: dir ?? '.' }, io);
    });

  cli
    .command(
      'import <file>',
      'Turn a recorded run (OpenAI chat, OTel trace or SDK spans, SWE-agent .traj, tau-bench results) into workup folders',
    )
    .option(
      '--from <format>',
      'openai | otel | otel-sdk | trajectory | swe-agent | tau-bench (detected from the file when left out)',
    )
    .option(
      '--out <dir>',
      'The workup folder to write (several runs: one subfolder each), or a *.workups.jsonl file (one run a line)',
    )
    .option('--trace <id>', 'The trace to import when an OTLP file holds several (default: all)')
    .option('--force', 'Overwrite the files of an existing workup')
    .example('needlework import fixtures/imports/openai-chat.json --out workups/openai-run')
    .example('needlework import fixtures/imports/otel-genai-trace.json --from otel --out workups/otel-run')
    .example('needlework import results.json --from tau-bench --out workups/tau')
    .action(async (file: string, options: Record<string, unknown>) => {
      const { runImport, importOptions } = await import('./commands/import.js');
      result.code = await runImport(importOptions(file, options, cli.rawArgs), io);
    });

  cli
    .command(
      'trend [...source]',
      'Show the last runs of the results store (or a trend.json), with deltas and sparklines; gate on regressions; `trend export`, `trend import <file>`',
    )
    .option(
      '--store <dir|url>',
      'The results store: a folder or postgres:// URL (default: NEEDLEWORK_STORE, else .needlework/store)',
    )
    .option('--last <n>', 'How many recent runs to show (default 10)')
    .option(
      '--baseline <store|file>',
      'Compare the latest run with the latest run of the same scope in this store or trend.json',
    )
    .option('--fail-on-regression', 'Exit 1 when a criterion dropped significantly')
    .option('--level <p>', 'The significance level of the regression gate (default 0.05)')
    .option('--tolerance <x>', 'Gate on a fixed tolerance instead: how far a [0, 1] score may fall (0.02)')
    .option(
      '--relative-tolerance <x>',
      'Gate on a fixed tolerance instead: how far a metric with a unit may worsen, as a fraction (0.1)',
    )
    .option('--out <file>', 'trend export: the file to write (default: standard output)')
    .example('needlework trend')
    .example('needlework trend --store postgres://ci@db/needlework --fail-on-regression')
    .example('needlework trend export --out trend.json')
    .example('needlework trend import trend.json')
    .action(async (source: string[], options: Record<string, unknown>) => {
      const store = single(options, 'store', 'store');
      const [first, ...rest] = source;
      if (first === 'export' || first === 'import') {
        const transfer = await import('./commands/trend-transfer.js');
        const base = store !== undefined ? { store } : {};
        if (first === 'export') {
          if (rest.length > 0) throw new UsageError('trend export takes no file argument; use --out <file>');
          const out = single(options, 'out', 'file');
          result.code = await transfer.runTrendExport({ ...base, ...(out !== undefined && { out }) }, io);
        } else {
          if (rest.length !== 1) throw new UsageError('trend import takes one trend.json file');
          result.code = await transfer.runTrendImport({ ...base, file: rest[0]! }, io);
        }
        return;
      }
      if (source.length > 1) throw new UsageError('trend takes one store or trend.json');
      const { runTrend } = await import('./commands/trend.js');
      const last = wholeNumber(options, 'last', 0);
      const baseline = single(options, 'baseline', 'store or trend.json');
      result.code = await runTrend(
        {
          ...(first !== undefined ? { file: first } : {}),
          ...(store !== undefined ? { store } : {}),
          ...(last !== undefined ? { last } : {}),
          ...(baseline !== undefined ? { baseline } : {}),
          failOnRegression: options['failOnRegression'] === true,
          ...gateNumbers(options),
        },
        io,
      );
    });

  cli
    .command(
      'ui',
      'Serve the run history to a browser: runs, compare, a case over time, trends, trials, live',
    )
    .option('--store <dir|url>', 'The results store (default: NEEDLEWORK_STORE, else .needlework/store)')
    .option('--port <n>', 'The port (default 4173, or the next free one)')
    .option('--host [address]', 'Listen on this address rather than 127.0.0.1 (alone: every address)')
    .example('needlework ui')
    .action(async (options: Record<string, unknown>) => {
      const { runUi } = await import('./commands/ui.js');
      const store = single(options, 'store', 'store');
      const port = wholeNumber(options, 'port', 0);
      const host = options['host'] === true ? '0.0.0.0' : single(options, 'host', 'address');
      result.code = await runUi(
        {
          ...(store !== undefined && { store }),
          ...(port !== undefined && { port }),
          ...(host !== undefined && { host }),
        },
        io,
      );
    });

  cli
    .command('prune', 'Drop old runs from the results store (it keeps every run unless told)')
    .option('--store <dir|url>', 'The results store (default: NEEDLEWORK_STORE, else .needlework/store)')
    .option('--keep-last <n>', 'Keep only the most recent n runs')
    .option('--older-than <age>', 'Drop runs that ended longer ago than this: 90d, 12h, 4w')
    .example('needlework prune --keep-last 500')
    .example('needlework prune --older-than 90d')
    .action(async (options: Record<string, unknown>) => {
      const { runPrune } = await import('./commands/prune.js');
      const store = single(options, 'store', 'store');
      const olderThan = single(options, 'olderThan', 'age');
      const keepLast = wholeNumber(options, 'keepLast');
      result.code = await runPrune(
        {
          ...(store !== undefined && { store }),
          ...(keepLast !== undefined && { keepLast }),
          ...(olderThan !== undefined && { olderThan }),
        },
        io,
      );
    });

  cli
    .command(
      'score <workup>',
      'Score a workup: citations, tradecraft, needles and trajectory, as a scorecard',
    )
    .option(
      '--needle <spec>',
      'A needle spec to score against (repeatable; default: every needle in ./needles)',
    )
    .option('--gold <trajectory>', "A gold trajectory (default: the workup's gold.trajectory.json)")
    .option('--json', 'Print the scores as JSON')
    .option('--entail', 'Also check citation precision with a local NLI model')
    .option(
      '--nli-model, --model <dir|hf:owner/name>',
      'The NLI model for --entail (default: NEEDLEWORK_NLI_MODEL; --model is its old name)',
    )
    .option('--no-cache', 'Score entailment without the cache')
    .option('--rubric <spec>', 'Also score a rubric with an LLM judge (repeatable)')
    .option('--judge <url|replay:file>', 'The judge for --rubric (default: OPENAI_BASE_URL)')
    .option('--samples <n>', 'Judge samples per rubric criterion (default 3)')
    .option(
      '--tradecraft',
      "Lint the note's estimative language against ICD 203 (default: only when a needle is scored)",
    )
    .example('needlework score fixtures/workups/grounded')
    .example('needlework score fixtures/workups/guessed --needle needles/compound-alpha.needle.yaml --json')
    .action(async (workup: string, options: Record<string, unknown>) => {
      const { runScore } = await import('./commands/score.js');
      const needle = options['needle'];
      result.code = await runScore(
        {
          workup,
          needles: (Array.isArray(needle) ? needle : needle === undefined ? [] : [needle]).map(String),
          ...(typeof options['gold'] === 'string' && { gold: options['gold'] }),
          json: options['json'] === true,
          ...(options['tradecraft'] === true && { tradecraft: true }),
          ...(options['entail'] === true && {
            entail: {
              ...(typeof options['nliModel'] === 'string' && { model: options['nliModel'] }),
              cache: options['cache'] !== false,
            },
          }),
          ...(options['rubric'] !== undefined && {
            rubrics: (Array.isArray(options['rubric']) ? options['rubric'] : [options['rubric']]).map(String),
          }),
          ...(typeof options['judge'] === 'string' && { judge: options['judge'] }),
          ...(options['samples'] !== undefined && { samples: wholeNumber(options, 'samples') }),
        },
        io,
      );
    });

  cli
    .command(
      'judge [...workups]',
      'Score workups on a rubric with an LLM judge (median of samples, agreement, cost)',
    )
    .option('--rubric <spec>', 'The *.rubric.yaml to score (required)')
    .option(
      '--judge <url|replay:file>',
      'An OpenAI-compatible base URL, or replay:<cassette> (default: OPENAI_BASE_URL)',
    )
    .option(
      '--judge-model, --model <name>',
      'The judge model (default: NEEDLEWORK_JUDGE_MODEL, else gpt-4o-mini; --model is its old name)',
    )
    .option('--samples <n>', 'Judgements per criterion; the median is the score (default 3)')
    .option('--temperature <t>', 'Sampling temperature (default 0)')
    .option('--cassette <file>', 'Replay verdicts from this cassette; a request it lacks goes to the judge')
    .option('--record', 'Record new verdicts into --cassette')
    .option('--strict', 'Answer only from --cassette; a request it lacks fails (hermetic CI)')
    .option('--timeout <ms>', 'Time allowed per HTTP attempt (default 60000)')
    .option('--concurrency <n>', 'Requests in flight at once (default 4)')
    .option('--price <in,out>', 'The model price in USD per 1M input and output tokens, for the cost line')
    .option('--json', 'Print the results as JSON')
    .example(
      'needlework judge fixtures/workups/grounded --rubric needles/icd-203.rubric.yaml --judge http://localhost:11434/v1 --judge-model llama3.1',
    )
    .example(
      'needlework judge fixtures/workups/grounded --rubric needles/icd-203.rubric.yaml --cassette judge.cassette.json --record',
    )
    .example(
      'needlework judge fixtures/workups/grounded --rubric needles/icd-203.rubric.yaml --judge replay:judge.cassette.json',
    )
    .action(async (workups: string[], options: Record<string, unknown>) => {
      const { runJudge, judgeOptions } = await import('./commands/judge.js');
      result.code = await runJudge(judgeOptions(workups, options), io);
    });

  cli
    .command(
      'entail <premise> <hypothesis>',
      'Score how far a premise entails a hypothesis with a local NLI model',
    )
    .option(
      '--nli-model, --model <dir|hf:owner/name>',
      'An ONNX export folder or a Hub model (default: NEEDLEWORK_NLI_MODEL; --model is its old name)',
    )
    .option('--no-cache', 'Score without reading or writing the cache (.needlework/cache/entailment)')
    .option('--threads <n>', 'Threads one inference may use (default: the core count)')
    .option('--quantized', 'Use onnx/model_quantized.onnx')
    .option('--prompt <text>', 'The prompt a consistency model expects, with {premise} and {hypothesis}')
    .example(
      'needlework entail "Halberd is a member of Ash Cell." "Halberd belongs to Ash Cell." --nli-model ./nli',
    )
    .example('needlework entail "..." "..." --nli-model hf:Xenova/nli-deberta-v3-xsmall')
    .action(async (premise: string, hypothesis: string, options: Record<string, unknown>) => {
      const { runEntail, entailOptions } = await import('./commands/entail.js');
      result.code = await runEntail(entailOptions(premise, hypothesis, options), io);
    });

  cli.help();
  cli.version(version);
  return cli;
}
