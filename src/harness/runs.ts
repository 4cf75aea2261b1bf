import type { Workup } from '../model/workup.js';
import { createRecorder } from '../recorder/recorder.js';
import type { Recorder, RecorderOptions } from '../recorder/types.js';
import type { NoteOption } from './ai-sdk/step.js';

/**
 * What every SDK harness takes. `Run` is what the SDK knows of one run when it starts (a trace, a root run id), so an
 * `id` function can name the workup after it.
 */
export interface HarnessOptions<Run> {
  /**
   * The workup id of a run: a function of the run, or one string for every run (fine when each test records one run).
   * Default: the SDK's own id of the run (the trace id, the root run id).
   */
  id?: string | ((run: Run) => string);
  /** The task each run is one trial of (`meta.json` `task`). */
  task?: string;
  /** Which trial of its task each run is (`meta.json` `trial`). */
  trial?: number | string;
  /** Maps a tool call and its result to ledger facts (see `RecorderOptions.ledger`). */
  ledger?: RecorderOptions['ledger'];
  /** Further `meta.json` fields; the harness adds `harness` (its name). */
  meta?: Record<string, unknown>;
  /**
   * How the run's final answer becomes its note (markdown citing ledger ids as `[cite:<call id>]`): `true` (the answer
   * as it is: agents under test usually write their note as their final answer), `false` (no note), or a function
   * from the answer to the note (`undefined`: no note). The same option as the AI SDK harness's. @default true
   */
  note?: NoteOption;
  /**
   * Record into this recorder instead of one per run: the recorder `agentTest`'s `runAgent` gives, so a run that throws
   * still leaves what it did. Use one harness instance per run then; `id`, `task`, `trial`, `ledger` and `meta` are
   * the recorder's own.
   */
  recorder?: Recorder;
  /** Called with each run's workup when the run ends (exceptions it throws are not caught). */
  onWorkup?: (workup: Workup) => void;
}

/**
 * The runs one harness instance has seen, by the SDK's key for a run: a recorder per run in progress, the workups of
 * the runs that ended (in the order they ended), and which run came last, so `workup()` with no key means "the run
 * I just made". Shared by the harnesses so that each only translates its SDK's events.
 */
export class Runs<Run> {
  private readonly live = new Map<string, Recorder>();
  private readonly ended = new Map<string, Workup>();
  /** Workups of the runs that ended, in the order they ended. */
  readonly workups: Workup[] = [];
  private latest: string | undefined;

  constructor(
    /** The harness's name, for `meta.harness` and messages. */
    private readonly harness: string,
    private readonly options: HarnessOptions<Run>,
  ) {}

  /** The recorder of a run in progress, started on first use (`input`: the task the agent was given, if known). */
  recorder(key: string, run: Run, input?: string): Recorder {
    let recorder = this.live.get(key);
    if (!recorder) {
      recorder = startRecorder(this.harness, this.options, key, run, input);
      this.live.set(key, recorder);
      this.latest = key;
    }
    return recorder;
  }

  /** The recorder of a run in progress, if the run has one. */
  peek(key: string): Recorder | undefined {
    return this.live.get(key);
  }

  /** Ends a run: its workup joins `workups` and goes to `onWorkup`. A run that recorded nothing is no workup. */
  end(key: string): Workup | undefined {
    const recorder = this.live.get(key);
    if (!recorder) return undefined;
    this.live.delete(key);
    return this.add(key, finishRecorder(recorder, this.options));
  }

  /** Adds the workup of a run that ended, built by the harness itself (the OTel harness reads it from spans). */
  add(key: string, workup: Workup): Workup {
    this.ended.set(key, workup);
    this.workups.push(workup);
    this.options.onWorkup?.(workup);
    return workup;
  }

  /**
   * The workup of a run, ended or in progress: the run `key`, else the one that started last. Throws when there is
   * no such run, naming what there is, since asking too early (before the run) is the usual mistake.
   */
  workup(key?: string): Workup {
    const wanted = key ?? this.latest;
    const ended = wanted === undefined ? undefined : this.ended.get(wanted);
    if (ended) return ended;
    const recorder = wanted === undefined ? undefined : this.live.get(wanted);
    if (recorder) return finishRecorder(recorder, this.options);
    const known = [...this.ended.keys(), ...this.live.keys()];
    throw new Error(
      key === undefined
        ? `${this.harness}: no run recorded yet (is the harness registered with the SDK, and did the agent run?)`
        : `${this.harness}: no run ${key}; recorded runs: ${known.length > 0 ? known.join(', ') : '(none)'}`,
    );
  }
}

/**
 * A recorder for one run, set up from the harness options (`id` named after the run, `meta.harness` added), or the
 * recorder the options give.
 */
export function startRecorder<Run>(
  harness: string,
  options: HarnessOptions<Run>,
  key: string,
  run: Run,
  input?: string,
): Recorder {
  const { id, task, trial, ledger, meta } = options;
  if (options.recorder) {
    options.recorder.setMeta({ harness });
    return options.recorder;
  }
  return createRecorder({
    id: typeof id === 'function' ? id(run) : (id ?? key),
    ...(task !== undefined ? { task } : {}),
    ...(trial !== undefined ? { trial } : {}),
    ...(ledger !== undefined ? { ledger } : {}),
    ...(input !== undefined ? { input } : {}),
    meta: { ...meta, harness },
  });
}

/** The recorder's workup, with its note made from the final answer as the `note` option says. */
export function finishRecorder<Run>(recorder: Recorder, options: HarnessOptions<Run>): Workup {
  const note = options.note ?? true;
  if (note !== false) {
    const answer = recorder.workup().trajectory?.final_answer;
    const text = answer === undefined || answer === null ? undefined : note === true ? answer : note(answer);
    if (text !== undefined) recorder.note(text);
  }
  return recorder.workup();
}
