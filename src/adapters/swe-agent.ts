import { makeStep, makeTrajectory } from '../model/trajectory.js';
import type { WorkupMeta } from '../model/workup.js';
import { type AdapterSource, describe, isRecord, Problems, toolInput, toolOutput } from './common.js';
import type { ImportedWorkup } from './imported.js';

export interface SweAgentOptions extends AdapterSource {
  /** The run's task (the SWE-bench instance id); the import command passes the file name without `.traj`. */
  taskId?: string;
}

type Draft = Omit<Parameters<typeof makeStep>[0], 'step_id'>;

/**
 * Reads a SWE-agent trajectory file (`.traj`: `{ trajectory, history, info }`) into a workup.
 *
 * A function-calling run (its `history` has assistant messages with OpenAI `tool_calls`) is read from `history`:
 * each assistant message gives a `thought` and one `tool_call` per call (name, parsed arguments, call id), each
 * `tool` message an `observation` linked by its `tool_call_ids`, with the matching `trajectory` step's
 * `execution_time` as latency; the steps after the last answered call (the final `submit`, which the history does not
 * hold) are read as below. A run without function calling is read from `trajectory[]`: each step gives its
 * `thought`, a `tool_call` whose tool is the action's command word (`find_file`, `edit`, `python`) and whose input is
 * the rest of the action (`{ input: "missing_colon.py" }`, the whole action being the step's content), and the
 * `observation`. Demonstration messages (`is_demo`) are not the run's and are left out. An observation that SWE-agent
 * or its tools wrote for a failed action (see `ERROR_MARKERS`, `refusedBy`) carries that error, so `max_tool_errors`
 * counts it.
 *
 * The submission (`info.submission`, a patch) is the final answer. `info.exit_status` is the task outcome: a run
 * that submitted has an unknown outcome until the benchmark's tests run (`succeeded: null`); any other exit
 * (`exit_cost`, `exit_format`, `exit_error`, ...) did not succeed. Cost, tokens and API calls from
 * `info.model_stats` go into the meta.
 */
export function fromSweAgentTrajectory(json: unknown, options: SweAgentOptions = {}): ImportedWorkup {
  const problems = new Problems(options.file ?? '<swe-agent trajectory>', options.locate);
  if (!isRecord(json) || !Array.isArray(json['trajectory'])) {
    problems.add(
      isRecord(json) ? ['trajectory'] : [],
      `expected a SWE-agent trajectory with a "trajectory" list, found ${describe(isRecord(json) ? json['trajectory'] : json)}`,
    );
    problems.throwIfAny();
  }
  const root = json as Record<string, unknown>;
  const steps = root['trajectory'] as unknown[];
  steps.forEach((step, i) => {
    if (!isRecord(step)) problems.add(['trajectory', i], `expected a step object, found ${describe(step)}`);
  });
  const history = (Array.isArray(root['history']) ? root['history'] : []).filter(
    (m): m is Record<string, unknown> => isRecord(m) && m['is_demo'] !== true,
  );
  problems.throwIfAny();
  const records = steps as Array<Record<string, unknown>>;
  const info = isRecord(root['info']) ? root['info'] : {};

  const functionCalling = history.some(
    (m) => m['role'] === 'assistant' && Array.isArray(m['tool_calls']) && m['tool_calls'].length > 0,
  );
  const drafts = functionCalling ? fromHistory(history, records) : fromSteps(records);
  const dropped: string[] = [];
  const idle = records.filter((s) => str(s['action']).trim() === '').length;
  if (idle > 0) dropped.push(`${idle} step(s) without an action made no tool call`);

  const submission =
    typeof info['submission'] === 'string' && info['submission'].trim() !== '' ? info['submission'] : null;
  if (submission !== null) drafts.push({ step_type: 'answer', content: submission });
  const stats = isRecord(info['model_stats']) ? info['model_stats'] : {};
  const sent = num(stats['tokens_sent']);
  const received = num(stats['tokens_received']);
  const task = options.taskId ?? 'swe-agent';
  const trajectory = makeTrajectory({
    task_id: task,
    task_input: taskInput(history),
    steps: drafts.map((d, i) => makeStep({ ...d, step_id: i + 1 })),
    final_answer: submission,
    succeeded: submission !== null,
    total_tokens: (sent ?? 0) + (received ?? 0),
    total_latency_ms: records.reduce((sum, s) => sum + (num(s['execution_time']) ?? 0) * 1000, 0),
    metadata: { source_format: 'swe-agent', function_calling: functionCalling },
  });

  const status = typeof info['exit_status'] === 'string' ? info['exit_status'] : undefined;
  const meta: WorkupMeta = { task };
  if (status !== undefined) {
    meta.outcome = { succeeded: status.startsWith('submitted') ? null : false, status };
  }
  if (submission !== null) meta['submission'] = submission;
  const cost = num(stats['instance_cost']);
  if (cost !== undefined) meta['cost_usd'] = cost;
  if (sent !== undefined || received !== undefined)
    meta['tokens'] = { sent: sent ?? 0, received: received ?? 0 };
  const calls = num(stats['api_calls']);
  if (calls !== undefined) meta['api_calls'] = calls;

  return {
    name: task,
    trajectory,
    meta,
    dropped,
    sourceToolCalls: Math.max(
      records.length - idle,
      history.reduce((n, m) => n + (Array.isArray(m['tool_calls']) ? m['tool_calls'].length : 0), 0),
    ),
  };
}

/** A run without function calling: thought, action (command word + rest) and observation of each step. */
function fromSteps(records: ReadonlyArray<Record<string, unknown>>, offset = 0): Draft[] {
  const drafts: Draft[] = [];
  records.forEach((record, at) => {
    const i = at + offset;
    const thought = str(record['thought']) || str(record['response']);
    if (thought.trim() !== '') drafts.push({ step_type: 'thought', content: thought });
    const action = str(record['action']).trim();
    if (action === '') return;
    const match = /^(\S+)\s*([\s\S]*)$/.exec(action)!;
    const tool = match[1]!;
    const rest = match[2]!;
    const callId = `step-${i + 1}`;
    drafts.push({
      step_type: 'tool_call',
      content: action,
      tool_name: tool,
      tool_input: rest === '' ? {} : { input: rest },
      call_id: callId,
    });
    drafts.push(observation(record, tool, callId));
  });
  return drafts;
}

/** A function-calling run: assistant tool calls and the tool messages that answer them. */
function fromHistory(
  history: ReadonlyArray<Record<string, unknown>>,
  records: ReadonlyArray<Record<string, unknown>>,
): Draft[] {
  const drafts: Draft[] = [];
  const names = new Map<string, string>();
  let answered = 0;
  for (const message of history) {
    if (message['role'] === 'assistant') {
      const thought = str(message['thought']) || text(message['content']);
      if (thought.trim() !== '') drafts.push({ step_type: 'thought', content: thought });
      const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
      for (const call of calls) {
        if (!isRecord(call) || !isRecord(call['function'])) continue;
        const name = str(call['function']['name']);
        const args = call['function']['arguments'];
        const input = toolInput(args);
        const id = typeof call['id'] === 'string' ? call['id'] : undefined;
        if (id !== undefined) names.set(id, name);
        drafts.push({
          step_type: 'tool_call',
          content: typeof args === 'string' ? args : JSON.stringify(input),
          tool_name: name,
          tool_input: input,
          ...(id !== undefined ? { call_id: id } : {}),
        });
      }
    } else if (message['role'] === 'tool') {
      const ids = Array.isArray(message['tool_call_ids'])
        ? message['tool_call_ids']
        : [message['tool_call_id']];
      const id = typeof ids[0] === 'string' ? ids[0] : undefined;
      const record = records[answered++] ?? {};
      drafts.push({
        ...observation(
          { ...record, observation: text(message['content']) },
          id ? (names.get(id) ?? null) : null,
        ),
        ...(id !== undefined ? { call_id: id } : {}),
      });
    }
  }
  // The step that ends the run (`submit`) has no tool message in the history: it is read from its trajectory step.
  return drafts.concat(fromSteps(records.slice(answered), answered));
}

/**
 * What SWE-agent treats as a failed action. Its trajectory has no error field and no exit code, so the texts its own
 * code writes for one are the markers (SWE-agent/SWE-agent at 3ea751c for 1.x, tag v0.7.0 for 0.7):
 * - the agent's: an edit its linter rejected, a command that failed `bash -n` and was not run, a command cancelled on
 *   timeout, a blocked command (`sweagent/agent/agents.py`, `sweagent/tools/tools.py`);
 * - its tools' refusals: a command that did nothing because it could not (no file open, a line past the end, a file
 *   or text not found, an edit not applied). The 1.x tools exit non-zero on each of these (`tools/windowed/bin/*`,
 *   `tools/windowed/lib/windowed_file.py`, `tools/windowed_edit_*`, `tools/edit_anthropic/bin/str_replace_editor`);
 *   the 0.7 shell functions (`config/commands/defaults.sh`, `edit_linting.sh`, `search.sh`) print the same refusals
 *   and return.
 * What a command printed (a Python traceback of the script the agent ran, a failing test, `No matches found`) is the
 * command's output, not a tool error.
 */
const ERROR_MARKERS: readonly RegExp[] = [
  /^Your proposed edit has introduced new syntax error\(s\)/,
  /^Your bash command contained syntax errors and was NOT executed/,
  /^The command '[\s\S]*' was cancelled because it took more than \d+ seconds/,
  /^(Interactive o|O)peration '[\s\S]*' is not supported by this environment/,
  // The windowed file tools (0.7 and 1.x): `edit`, `goto`, `scroll_*`, `search_file`, `insert` with no file open.
  /^No file open(ed)?\. /,
  /^goto allows only one line number at a time\./,
  /^Error: <line> must be less than or equal to \d+/,
  /^Error: [\s\S]* is a directory\. You can only open files\./,
  /^(Error|Warning): File '[\s\S]*' already exists\./,
  /^Error: Text not found: /,
  /^Your edit was not applied \(file not modified\)/,
  /^Your search and replace strings are the same\. No changes were made\./,
  // `str_replace_editor` (1.x's default edit tool), each with its own exit code.
  /^No replacement was performed/,
  /^The path [\s\S]* does not exist\. Please provide a valid path\./,
  /^The path [\s\S]* is not an absolute path/,
  /^The path [\s\S]* is a directory and only the `view` command can be used/,
  /^File already exists at: [\s\S]*\. Cannot overwrite files/,
  /^The parent directory [\s\S]* does not exist\. Please create it first\./,
  /^Parameter `\w+` is required for command: /,
  /^Unrecognized command [\s\S]*\. The allowed commands for the /,
  /^Invalid `(view_range|insert_line)`/,
  /^No edit history found for /,
];

/**
 * The refusals of SWE-agent's commands whose wording another program could print too, read only from the command
 * that prints them: its usage line (`Usage: edit <start_line>:<end_line>`), `open` of a missing file (0.7:
 * `File x.py not found`, 1.x: `Error: File x.py not found`), a search in a missing folder (`Directory src not found`).
 */
function refusedBy(tool: string | null, text: string): boolean {
  if (tool === null) return false;
  if (text.startsWith(`Usage: ${tool} `) || text.startsWith(`Usage: ${tool}\n`)) return true;
  if (tool === 'open' && /^(Error: )?File \S.* not found$/.test(text.split('\n', 1)[0]!)) return true;
  return (tool === 'find_file' || tool === 'search_dir') && /^Directory \S.* not found/.test(text);
}

/** The error an observation reports by one of SWE-agent's markers: its first line; `null` for any other output. */
function markedError(content: string, tool: string | null): string | null {
  const text = content.trimStart();
  if (!ERROR_MARKERS.some((marker) => marker.test(text)) && !refusedBy(tool, text)) return null;
  return text.split('\n', 1)[0]!.trim();
}

function observation(record: Record<string, unknown>, tool: string | null, callId?: string): Draft {
  const content = str(record['observation']);
  return {
    step_type: 'observation',
    content,
    tool_name: tool,
    tool_output: toolOutput(content),
    error: markedError(content, tool),
    latency_ms: (num(record['execution_time']) ?? 0) * 1000,
    ...(callId !== undefined ? { call_id: callId } : {}),
  };
}

/** The issue the agent was given: the first user message of the run (demonstrations already left out). */
function taskInput(history: ReadonlyArray<Record<string, unknown>>): string {
  const first = history.find((m) => m['role'] === 'user');
  return first ? text(first['content']) : '';
}

/** A message's text: a string, or the text parts of a content list. */
function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
