/**
 * The JSON the UI's API answers with (`/api/...`): the served client reads exactly these shapes. Types only, shared
 * by the server (src/ui) and the browser client (src/ui/client), so the two cannot drift apart.
 */

/** A run without its checks, as the Runs view lists it. */
export interface RunRow {
  id: string;
  /** When the run ended (ISO 8601, UTC). */
  time: string;
  commit?: string;
  branch?: string;
  baseBranch?: string;
  model?: string;
  agentVersion?: string;
  /** `full`, or `partial (...)` in words. */
  scope: string;
  checks: number;
  passed: number;
  failed: number;
  notApplicable: number;
  skipped: number;
  /** passed / (passed + failed), in [0, 1]; null when nothing was decided. */
  passRate: number | null;
}

/** `GET /api/runs?offset&limit&branch&model&from&to`: one page of runs, newest first. */
export interface RunsPage {
  /** Runs passing the filters in all. */
  total: number;
  offset: number;
  rows: RunRow[];
}

/** `GET /api/facets`: the values the Runs view's filters offer. */
export interface Facets {
  branches: string[];
  models: string[];
}

/** `GET /api/info`: what the UI serves. */
export interface Info {
  /** The store's folder or redacted URL. */
  store: string;
  engine: 'embedded' | 'server';
  runs: number;
  version: string;
}

/** A run's change against its baseline, in the gate's words (`GET /api/changes?ids=`). */
export interface RunChange {
  id: string;
  /** Absent when the run has no baseline (its first run of its scope). */
  baseline?: string;
  /** `vs 2770e68 (main): nothing regressed; 1 still failing`; absent without a baseline. */
  headline?: string;
  regressed: number;
  fixed: number;
  flaky: number;
  moved: number;
  stillFailing: number;
  added: number;
  removed: number;
}

/** One case x criterion of a comparison, as `gateText` words it, with each side's own reason. */
export interface CompareRow {
  status: 'regressed' | 'fixed' | 'still-failing' | 'flaky' | 'moved' | 'added' | 'removed' | 'unchanged';
  spec: string;
  /** The task case, when the spec has cases. */
  caseId?: string;
  task: string;
  /** `refunds/refund-late`: the case as the gate names it. */
  case: string;
  criterion: string;
  before: string;
  after: string;
  basis?: string;
  direction?: 'better' | 'worse';
  beforeReason?: string;
  afterReason?: string;
  /** The gate's whole line for this row. */
  line: string;
}

/** `GET /api/compare?current=&baseline=`: the comparison the gate makes, from `compare()` and `gateText()`. */
export interface Comparison {
  current: RunRow;
  /** Absent when the run has no baseline and none was named. */
  baseline?: RunRow;
  /** Whether the baseline was named in the request (else `findBaseline` chose it, as the gate does). */
  chosen: boolean;
  headline?: string;
  counts: Record<CompareRow['status'], number>;
  countsText?: string;
  notes: string[];
  /** The exact test's evidence per spec x criterion with repeats (gateText's `criteria`). */
  criteria: Array<{ status: string; spec: string; criterion: string; text: string; drops: string[] }>;
  rows: CompareRow[];
}

/** One check of a run, as the One run view lists it. */
export interface CheckRow {
  spec: string;
  case?: string;
  workup: string;
  task?: string;
  trial?: number | string;
  criterion: string;
  metric: string;
  value: number | boolean | null;
  unit?: string;
  threshold?: number;
  comparator?: '>=' | '<=' | '==';
  verdict: 'pass' | 'fail' | 'not-applicable';
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  reason?: string;
  /**
   * Where the check's assertion is written in its spec file, `file:line:column` from the project root, and where its
   * task case starts when elsewhere: known to the static report of a run as it ran (the store does not keep them).
   */
  place?: string;
  casePlace?: string;
  /**
   * Which file of its workup id the check's workup is (1-based, in byte order of their paths: the workup view's
   * `?file=`), when that id names several in the run (two live tests of one name in two folders).
   */
  workupFile?: number;
}

/** `GET /api/runs/:id`: one run and its checks, with what its comparison says of each case x criterion. */
export interface RunDetail {
  run: RunRow;
  checks: CheckRow[];
  /** The baseline's id, when there is one. */
  baseline?: string;
  /** The comparison's status of each changed case x criterion, keyed `spec\0criterion\0case\0task`. */
  changes: Record<string, CompareRow['status']>;
  /** Keys (as `changes`) of the case x criterion pairs whose trials in this run both passed and failed. */
  flaky: string[];
  /** The gate's story of the run against its baseline, which heads the view; absent without a baseline. */
  gate?: GateSummary;
  /**
   * The run's plain Vitest tests (no needlework check), counted: known to the static report of a run as it ran, whose
   * `/api/runs/:id/tests` lists them (the store keeps checks only).
   */
  tests?: { total: number; failed: number };
}

/** `/api/runs/:id/tests`, held by the static report only: the run's plain Vitest tests, failing first. */
export interface PlainTests {
  run: string;
  tests: PlainTest[];
}

export interface PlainTest {
  /** The test file, from the project root. */
  file: string;
  /** The test's full name (its describe blocks and its own). */
  name: string;
  state: CheckRow['state'];
  /** Wall time, milliseconds. */
  durationMs: number;
  /** What it threw (colour codes stripped). */
  errors: string[];
}

/** The gate's headline, counts and notes, and the first changed rows (regressed first): the whole list is Compare's. */
export interface GateSummary {
  /** `vs 2770e68 (main): 1 regressed; 1 still failing`. */
  headline: string;
  /** Whether the gate fails: something regressed. */
  regressed: boolean;
  /** `1 regressed, 0 fixed, ...`: every status counted. */
  counts: string;
  notes: string[];
  /** How many case x criterion pairs regressed, were fixed, turned flaky or moved. */
  changed: number;
  /** The first of them (at most 3), in the gate's order. */
  rows: CompareRow[];
}

/** One run's verdicts of a case (`GET /api/case?spec&case&task`). */
export interface CasePoint {
  run: string;
  time: string;
  commit?: string;
  branch?: string;
  model?: string;
  agentVersion?: string;
  criterion: string;
  workup: string;
  trial?: number | string;
  verdict: CheckRow['verdict'];
  value: number | boolean | null;
  unit?: string;
  reason?: string;
}

export interface CaseHistory {
  spec: string;
  case?: string;
  task: string;
  /** Its checks in the newest runs that hold it (at most 200 runs), oldest first. */
  points: CasePoint[];
  /** Older runs were left out of `points`. */
  truncated: boolean;
  /** Per criterion of `points`: its first failing check in the whole history. */
  firstFailures: Array<{ criterion: string; point: CasePoint }>;
}

/** `GET /api/trends?last=`: pass rate and metric means over the last runs, oldest first. */
export interface Trends {
  total: number;
  runs: RunRow[];
  /** Each run's label under a chart's x axis: its commit's first 7 characters, else its time (`MM-DD HH:MM`, UTC). */
  labels: string[];
  /** The pass rate's value axis: 0 to 1. */
  passRateAxis: Axis;
  /** Indexes into `runs` where the model or the agent version differs from the run before. */
  changes: Array<{ index: number; what: string }>;
  series: Array<{
    spec: string;
    criterion: string;
    metric: string;
    unit?: string;
    lowerIsBetter: boolean;
    /** One mean per run (null where the run has none). */
    means: Array<number | null>;
    /** The value axis, fitted to the means and their unit (`src/ui/axis.ts`). */
    axis: Axis;
  }>;
}

/** A chart's value axis: every value it shows lies in [min, max]. */
export interface Axis {
  min: number;
  max: number;
  /** Where the axis is labelled, from `min` to `max`, evenly spaced, in the values' unit. */
  ticks: number[];
}

/** `GET /api/runs/:id/trials`: trials per spec x criterion x task. */
export interface TrialsView {
  run: RunRow;
  criteria: Array<{
    spec: string;
    criterion: string;
    metric: string;
    /** The k values pass@k and pass^k were computed for. */
    ks: string[];
    tasks: number;
    trials: number;
    passes: number;
    /** passes / trials over every task, a ratio in [0, 1], with its 95% interval clustered by task; null with no trials. */
    passRate: number | null;
    interval: { low: number; high: number } | null;
    passAtK: Record<string, number | null>;
    passHatK: Record<string, number | null>;
    rows: Array<{
      task: string;
      trials: number;
      passes: number;
      flaky: boolean;
      passAtK: Record<string, number | null>;
      passHatK: Record<string, number | null>;
      /** Each trial's verdict, in the order of its checks: which trials differ. */
      verdicts: Array<{ workup: string; trial?: number | string; verdict: CheckRow['verdict'] }>;
    }>;
  }>;
}

/** What `GET /api/events` sends (Server-Sent Events, event `run`): a run appended while the UI is open. */
export interface RunEvent {
  run: RunRow;
  total: number;
}

/**
 * `GET /api/runs/:id/workups/:workup`: one workup of a run, read from the file its checks name, with what those checks
 * expected laid over it. Built by `workupAnswer` (src/ui/workup-data.ts) from the workup and the run's checks of it,
 * for the served UI and for the static report alike. Every string may come from an agent: it is text, never markup.
 */
export interface WorkupAnswer {
  /** The run the checks are of. */
  run: string;
  /** The workup's id, as its checks name it. */
  workup: string;
  /** The workup's folder or file as its checks name it (relative to the run's project root); absent: built in memory. */
  path?: string;
  /**
   * Every file of this workup id in the run, when there are several (two workups in two folders may share an id): the
   * view's `?file=<n>` (1-based) picks one.
   */
  files?: string[];
  task?: string;
  trial?: number | string;
  /** What the agent was asked (`meta.input`, else the trajectory's `task_input`). */
  input?: string;
  /** The trajectory's final answer. */
  finalAnswer?: string;
  /**
   * Why the workup's content is not shown (`gone`, `outside`, `no-file`, `unreadable`), or, for `changed`, why what is
   * shown may differ from what the run checked; in words, naming the file.
   */
  problem?: { kind: 'gone' | 'changed' | 'outside' | 'no-file' | 'unreadable'; message: string };
  /** The run's checks of this workup, in the order given. */
  checks: WorkupCheck[];
  /** The trajectory's steps, in order; empty without a trajectory. */
  steps: WorkupStep[];
  /** The steps counted; absent without a trajectory. */
  tally?: WorkupTally;
  note?: WorkupNote;
  /** The provenance ledger, in file order. */
  ledger: WorkupLedgerEntry[];
  /** Per tool-calls check that recorded its expected calls: those calls against the run's. */
  expected: ExpectedCalls[];
  /** Per needle check that recorded a required relation path: the path against the ledger's. */
  paths: ExpectedPath[];
}

/** A check of the workup, as One run lists it, without what the workup view says once for all (workup, task, trial). */
export type WorkupCheck = Pick<
  CheckRow,
  | 'spec'
  | 'case'
  | 'criterion'
  | 'metric'
  | 'value'
  | 'unit'
  | 'threshold'
  | 'comparator'
  | 'verdict'
  | 'reason'
>;

export interface WorkupStep {
  /** The step's own id (`step_id`). */
  id: number;
  type: 'thought' | 'tool_call' | 'observation' | 'answer';
  tool?: string;
  /** A tool call's arguments, as JSON text. */
  args?: string;
  content: string;
  /** What the tool returned (an observation's `tool_output`), as text (JSON for anything but a string). */
  output?: string;
  error?: string;
  /** Milliseconds. */
  latencyMs: number;
  tokens: number;
  /** The id that links a call with its observation. */
  callId?: string;
  /** A tool call's position among the trajectory's tool calls, 0-based (what the expected calls' alignment counts). */
  call?: number;
  /** True for a tool call that repeats an earlier one exactly (same tool, same arguments). */
  redundant?: true;
  /** The whole length of each text that was cut (at 20,000 characters), so the view says what it leaves out. */
  cut?: { content?: number; args?: number; output?: number };
  /** How each expected-calls check sees this tool call (`expected` indexes `WorkupAnswer.expected`). */
  marks?: StepMark[];
}

/**
 * `matched`: paired with the expected call `call`, in order; `out-of-order`: paired, but before a call it should follow
 * (a mode that checks no order allows it); `extra`: an extra call the verdict counts; `extra-allowed`: unpaired, which
 * the mode allows (a superset match).
 */
export interface StepMark {
  expected: number;
  status: 'matched' | 'out-of-order' | 'extra' | 'extra-allowed';
  /** The expected call it was paired with (index into that check's `calls`). */
  call?: number;
}

export interface WorkupTally {
  toolCalls: number;
  errors: number;
  redundant: number;
  /** Tokens and latency (ms) of the steps, summed. */
  tokens: number;
  latencyMs: number;
  /** The trajectory's own totals, where they differ from the sums of its steps. */
  recorded?: { tokens?: number; latencyMs?: number };
}

export interface WorkupNote {
  sections: Array<{
    title: string;
    /** False for sections that make no claims (`Gaps & caveats`, `Provenance`). */
    claims: boolean;
    segments: Array<{ kind: 'bullet' | 'paragraph'; sentences: WorkupSentence[] }>;
  }>;
  /** Citations by status (`resolved`, `failed-query`, `dangling`), and uncited and unsupported claims (sentences). */
  counts: Record<'resolved' | 'failed-query' | 'dangling' | 'uncited' | 'unsupported', number>;
}

export interface WorkupSentence {
  text: string;
  /** `uncited` or `unsupported` when the sentence is one; absent when it is cited and not disputed. */
  status?: 'uncited' | 'unsupported';
  /** Each citation, resolved: the ledger entry it names (`entry`, an index into `ledger`), absent when it dangles. */
  citations: Array<{
    id: string;
    status: 'resolved' | 'failed-query' | 'dangling' | 'unsupported';
    entry?: number;
  }>;
}

export interface WorkupLedgerEntry {
  id: string;
  store: string;
  query: string;
  /** The facts it returned (the first 200: `resultCount` says how many in all). */
  results: Array<{ subject: string; relation: string; object: string }>;
  /** How many facts it returned. */
  resultCount: number;
  /** A document store's passage. */
  text?: string;
  error?: string;
  /** How many citations of the note name it. */
  cited: number;
  /** The hops of required paths that walked a fact it returned (`path` indexes `WorkupAnswer.paths`). */
  hops?: Array<{ path: number; hop: number }>;
}

/** A tool-calls check's expected calls against the run's, as the match paired them (its evidence's alignment). */
export interface ExpectedCalls {
  spec: string;
  case?: string;
  criterion: string;
  verdict: WorkupCheck['verdict'];
  /** The trajectory match mode (`strict`, `unordered`, `subset`, `superset`) and argument mode. */
  mode: string;
  args: string;
  /** The first structural difference of a strict match over messages. */
  reason?: string;
  calls: Array<{
    tool: string | null;
    /** The expected arguments, as JSON text. */
    args: string;
    /**
     * `matched`, `out-of-order` (paired, out of the expected order), `missing` (the verdict counts it),
     * `missing-allowed` (unpaired, which a subset match allows), or `unaligned` when the check's pairing does not fit
     * the workup as it is now (it changed since the run: `WorkupAnswer.problem` says so).
     */
    status: 'matched' | 'out-of-order' | 'missing' | 'missing-allowed' | 'unaligned';
    /** The step it was paired with (index into `steps`). */
    step?: number;
    /**
     * For an unpaired call: the step it would follow (index into `steps`; -1: before every step): the last result of
     * the latest call paired with a call expected before it.
     */
    after?: number;
  }>;
  counts: { matched: number; outOfOrder: number; missing: number; extra: number };
}

/** A needle's required relation path against the hops the ledger traversed. */
export interface ExpectedPath {
  spec: string;
  criterion: string;
  verdict: WorkupCheck['verdict'];
  required: string[];
  traversed: string[];
  /** One per required relation, in order: traversed (through which ledger entry) or missing. */
  hops: Array<{
    relation: string;
    status: 'traversed' | 'missing';
    ledgerId?: string;
    /** Index into `ledger`. */
    entry?: number;
    from?: string;
    to?: string;
  }>;
}

/**
 * What the static report of a run says of itself (`<script type="application/json" id="needlework-report">`): it is
 * the client over one run's answers, each inlined in a `<script type="application/json" data-api="<path>">` as the
 * server would answer that path (src/ui/report).
 */
export interface ReportInfo {
  /** The run the report is of. */
  run: string;
  title: string;
  /** When the report was written: ISO 8601, UTC. */
  generatedAt: string;
  /** The view the report opens at (a path of the UI: `/runs/<id>?filter=failing`). */
  home: string;
}

/**
 * What `GET /api/events` sends first and whenever it changes (event `mode`): `live` while the server hears of new
 * runs as they are added (the door of the embedded store, or LISTEN on a PostgreSQL server), `polling` while it only
 * looks for them every so often (it lost its LISTEN connection), with the reason.
 */
export interface LiveMode {
  mode: 'live' | 'polling';
  reason?: string;
}
