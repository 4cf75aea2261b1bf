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
  }>;
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
 * What `GET /api/events` sends first and whenever it changes (event `mode`): `live` while the server hears of new
 * runs as they are added (the door of the embedded store, or LISTEN on a PostgreSQL server), `polling` while it only
 * looks for them every so often (it lost its LISTEN connection), with the reason.
 */
export interface LiveMode {
  mode: 'live' | 'polling';
  reason?: string;
}
