// Imports keep what the runs say: each format's own way of recording a failed tool call becomes a step error (so a
// `max_tool_errors` budget sees it), and an answer or cost recorded beside the spans is not lost.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromOpenAIMessages } from '../../src/adapters/openai.js';
import { fromOtelSdkSpans } from '../../src/adapters/otel-sdk.js';
import { fromSweAgentTrajectory } from '../../src/adapters/swe-agent.js';
import { budgetChecks } from '../../src/checks/budgets.js';
import { runImport } from '../../src/cli/commands/import.js';
import { errorSteps } from '../../src/model/trajectory.js';
import type { Workup } from '../../src/model/workup.js';
import { parseJson } from '../../src/parse/json.js';
import { loadWorkup } from '../../src/workup/load.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();
const FIXTURES = 'fixtures/imports';
const read = async (name: string, bigints = false) =>
  parseJson(await readFile(join(FIXTURES, name), 'utf8'), name, 0, { bigints });

/** The verdict of one budget of a task case's `steps` on a workup, as a YAML case would decide it. */
function budget(steps: Parameters<typeof budgetChecks>[0], workup: Workup) {
  const [only] = budgetChecks(steps);
  const measured = only!.check(workup);
  return { verdict: measured.verdict, value: measured.value, summary: measured.summary };
}

describe('tau-bench: a tool message that begins "Error:" is a tool error', () => {
  it('fails max_tool_errors: 0 on a run whose book_reservation failed, through the import command', async () => {
    const dir = await tmp();
    const io = captureIo();
    expect(await runImport({ file: `${FIXTURES}/tau-bench-airline-error.json`, out: dir }, io)).toBe(0);
    const workup = await loadWorkup(join(dir, 'task-7-trial-1'));
    expect(errorSteps(workup.trajectory!).map((s) => [s.step_type, s.tool_name, s.error])).toEqual([
      ['observation', 'book_reservation', 'flight HAT069 not available on date 2024-05-17'],
    ]);
    expect(budget({ max_tool_errors: 0 }, workup)).toEqual({
      verdict: 'fail',
      value: 1,
      summary: 'tool errors: 1, at most 0',
    });
    expect(budget({ max_tool_errors: 1 }, workup).verdict).toBe('pass');
  });

  it('leaves a plain OpenAI log alone: "Error:" is tau-bench\'s convention, not every chat log\'s', () => {
    const messages = [
      { role: 'user', content: 'spell it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: is a word the user asked about' },
      { role: 'assistant', content: 'done' },
    ];
    expect(errorSteps(fromOpenAIMessages(messages))).toEqual([]);
    const tau = fromOpenAIMessages(messages, { toolErrorPrefix: 'Error:' });
    expect(errorSteps(tau).map((s) => s.error)).toEqual(['is a word the user asked about']);
  });
});

describe('SWE-agent: the observations SWE-agent writes for a failed action are tool errors', () => {
  it('counts the three edits its linter rejected in a real run, and not the traceback of the script it ran', async () => {
    const w = fromSweAgentTrajectory(await read('swe-agent-edit-errors.traj'), { taskId: 'pydicom-1458' });
    const errors = errorSteps(w.trajectory);
    expect(errors.map((s) => [s.tool_name, s.error])).toEqual([
      [
        'edit',
        'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.',
      ],
      [
        'edit',
        'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.',
      ],
      [
        'edit',
        'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.',
      ],
    ]);
    // `python reproduce_bug.py` printed a traceback: the bug it reproduces, the command's output.
    const traceback = w.trajectory.steps.find((s) =>
      s.content.startsWith('Traceback (most recent call last)'),
    );
    expect(traceback?.error).toBeNull();
    const workup: Workup = { id: w.name, ledger: [], trajectory: w.trajectory, meta: w.meta };
    expect(budget({ max_tool_errors: 2 }, workup)).toMatchObject({ verdict: 'fail', value: 3 });
  });

  it('counts an edit that did nothing because no file was open, as SWE-agent 0.7 answers it', async () => {
    // The real run, its `open` skipped: SWE-agent 0.7's `edit` (config/commands/edit_linting.sh) then prints this and
    // returns without editing; the 1.x tools exit 1 on the same refusal.
    const run = (await read('swe-agent-commands.traj')) as { trajectory: Array<Record<string, unknown>> };
    const noFile = 'No file open. Use the `open` command first.\n';
    run.trajectory.splice(1, 1);
    run.trajectory[1]!['observation'] = noFile;
    run.trajectory.splice(2, 0, { ...run.trajectory[1]!, observation: noFile });
    const w = fromSweAgentTrajectory(run, { taskId: 'i1' });
    expect(errorSteps(w.trajectory).map((s) => [s.tool_name, s.error])).toEqual([
      ['edit', 'No file open. Use the `open` command first.'],
      ['edit', 'No file open. Use the `open` command first.'],
    ]);
    const workup: Workup = { id: w.name, ledger: [], trajectory: w.trajectory, meta: w.meta };
    expect(budget({ max_tool_errors: 0 }, workup)).toMatchObject({
      verdict: 'fail',
      value: 2,
      summary: 'tool errors: 2, at most 0',
    });
  });

  it("reads the refusals of SWE-agent's tools as errors, and a usage line only from the command it names", () => {
    const step = (action: string, observation: string) => ({ action, observation });
    const w = fromSweAgentTrajectory({
      trajectory: [
        step('goto 900', 'Error: <line> must be less than or equal to 120\n'),
        step('open nope.py', 'File nope.py not found\n'),
        step(
          'open "a.py" x',
          'Usage: open "<file>" [<line_number>]\nError: <line_number> must be a number\n',
        ),
        step('search_dir foo lib', 'Directory lib not found\n'),
        step(
          'str_replace_editor str_replace /r/a.py --old_str x --new_str y',
          'No replacement was performed, old_str `x` did not appear verbatim in /r/a.py.',
        ),
        step(
          'str_replace_editor view a.py',
          'The path a.py is not an absolute path, it should start with `/`.',
        ),
        // What a command printed is its output: a script's own usage line, a search that found nothing.
        step('python manage.py', 'Usage: manage.py <command>\nFile db.sqlite not found\n'),
        step('search_dir needle', 'No matches found for "needle" in /repo\n'),
      ],
      history: [],
      info: {},
    });
    expect(errorSteps(w.trajectory).map((s) => [s.tool_name, s.error])).toEqual([
      ['goto', 'Error: <line> must be less than or equal to 120'],
      ['open', 'File nope.py not found'],
      ['open', 'Usage: open "<file>" [<line_number>]'],
      ['search_dir', 'Directory lib not found'],
      ['str_replace_editor', 'No replacement was performed, old_str `x` did not appear verbatim in /r/a.py.'],
      ['str_replace_editor', 'The path a.py is not an absolute path, it should start with `/`.'],
    ]);
  });

  it('reads a timeout, a command that failed bash -n and a blocked command as errors', () => {
    const w = fromSweAgentTrajectory({
      trajectory: [
        {
          action: 'sleep 999',
          observation:
            "The command 'sleep 999' was cancelled because it took more than 30 seconds. Please try a different command.",
        },
        {
          action: 'echo "(',
          observation:
            'Your bash command contained syntax errors and was NOT executed. Please fix the syntax errors and try again.',
        },
        { action: 'vim a.py', observation: "Operation 'vim a.py' is not supported by this environment." },
        { action: 'ls', observation: 'error.log\nREADME.md' },
      ],
      history: [],
      info: {},
    });
    expect(errorSteps(w.trajectory).map((s) => s.tool_name)).toEqual(['sleep', 'echo', 'vim']);
  });
});

describe('OpenTelemetry SDK span JSON: an error status is a tool error', () => {
  it('reads status_code "error" (any-agent writes it lowercase) with its description', async () => {
    const trace = (await read('any-agent-google-adk-trace.json', true)) as {
      spans: Array<Record<string, unknown>>;
    };
    const tool = trace.spans.find((s) => s['name'] === 'execute_tool write_file')!;
    tool['status'] = { status_code: 'error', description: 'PermissionError: /out is read-only' };
    const t = fromOtelSdkSpans(trace).traces[0]!.trajectory;
    expect(errorSteps(t).map((s) => [s.step_type, s.tool_name, s.error])).toEqual([
      ['observation', 'write_file', 'PermissionError: /out is read-only'],
    ]);
  });
});

describe("any-agent's AgentTrace: final_output beside the spans is the answer, and the spans' costs are imported", () => {
  const ADK_COST = 6.72e-5 + 4.8e-6 + 7.7e-5 + 4.2e-6 + 8.09e-5 + 1.68e-5;

  it('takes the answer of a Google ADK run whose last model call asked for a tool, and its cost', async () => {
    const dir = await tmp();
    const io = captureIo();
    expect(await runImport({ file: `${FIXTURES}/any-agent-google-adk-trace.json`, out: dir }, io)).toBe(0);
    expect(io.stdout()).not.toMatch(/no final answer/);
    const workup = await loadWorkup(dir);
    const answer = workup.trajectory!.final_answer!;
    expect(JSON.parse(answer)).toEqual({
      steps: [
        { number: 1, description: 'Get current time in the America/New_York timezone.' },
        { number: 2, description: 'Write the year to a file.' },
      ],
    });
    expect(workup.trajectory!.steps.at(-1)).toMatchObject({ step_type: 'answer', content: answer });
    expect(workup.meta['cost_usd']).toBeCloseTo(ADK_COST, 12);
    expect(budget({ max_cost_usd: 0.001 }, workup)).toMatchObject({ verdict: 'pass' });
    expect(budget({ max_cost_usd: 0.0002 }, workup)).toMatchObject({ verdict: 'fail' });
  });

  it('says so, and places final_output nowhere, when the file holds several traces', async () => {
    const trace = (await read('any-agent-google-adk-trace.json', true)) as {
      spans: Array<Record<string, unknown>>;
    };
    const other = structuredClone(trace.spans[0]!) as { context: { trace_id: bigint } };
    other.context.trace_id = 1n;
    trace.spans.push(other as unknown as Record<string, unknown>);
    const { traces, unplaced } = fromOtelSdkSpans(trace);
    expect(traces.length).toBe(2);
    expect(unplaced).toEqual([
      'final_output was not imported: the file holds 2 traces and it names none of them',
    ]);
    const dir = await tmp();
    const file = join(dir, 'two.json');
    await writeFile(
      file,
      JSON.stringify(trace, (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
    );
    const io = captureIo();
    await runImport({ file, out: join(dir, 'out') }, io);
    expect(io.stdout()).toMatch(/final_output was not imported: the file holds 2 traces/);
  });
});
