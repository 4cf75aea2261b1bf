import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NeedleworkOtelReporter } from '../../reporters/otel.js';
import type { CheckRecord } from '../../src/report/checks.js';
import {
  buildEvaluationLogs,
  type EvaluationLogsOptions,
  evaluatedSpan,
  evaluationLogsJson,
} from '../../src/report/otel/events.js';
import type { OtlpExportLogsServiceRequest, OtlpLogRecord } from '../../src/report/otel/types.js';
import { checkMeta, makeProject, removeProject, runVitest, testFileSource } from './harness.js';
import { exportLogsRequestType, otlpJsonProblems, roundTrip } from './otlp-json.js';

const TRACE = '5B8EFFF798038103D269B633813FC60C';
const SPAN = 'EEE19B7EC3C1B174';
const NOTE = '# Run\n\n- Halberd is a member of Ash Cell. [cite:g1]\n';
const LEDGER = '{"id":"g1","store":"graph","query":"q","results":[]}\n';

let root: string;
let request: OtlpExportLogsServiceRequest;
let printed: string;

beforeAll(async () => {
  root = await makeProject({
    'runs/traced/note.md': NOTE,
    'runs/traced/provenance.jsonl': LEDGER,
    'runs/traced/meta.json': JSON.stringify({ trace: { traceId: TRACE, spanId: SPAN } }),
    'runs/local/note.md': NOTE,
    'checks.check.mjs': testFileSource([
      {
        describe: ['compound-alpha', 'traced'],
        name: 'traversed',
        meta: checkMeta({
          spec: 'compound-alpha',
          specFile: 'needles/compound-alpha.needle.yaml',
          place: { line: 4, column: 1 },
          case: 'bridge',
          task: 'bridge',
          trial: 2,
          workup: 'traced',
          workupPath: 'runs/traced',
          criterion: 'traversed',
          metric: 'trajectory',
          value: 0.5,
          verdict: 'fail',
          summary: '1 of 2 hops',
        }),
        outcome: 'fail',
      },
      {
        describe: ['compound-alpha', 'local'],
        name: 'surfaced',
        meta: checkMeta({
          spec: 'compound-alpha',
          workup: 'local',
          workupPath: 'runs/local',
          criterion: 'surfaced',
          value: true,
        }),
        outcome: 'pass',
      },
      {
        describe: ['compound-alpha', 'local'],
        name: 'reconciled',
        meta: checkMeta({
          spec: 'compound-alpha',
          workup: 'local',
          workupPath: 'runs/local',
          criterion: 'reconciled',
          metric: 'reconciliation',
          value: null,
          unit: 'stores',
          verdict: 'not-applicable',
        }),
        outcome: 'skip',
      },
      { describe: ['plain'], name: 'is not an evaluation', outcome: 'pass' },
    ]),
  });
  const write = vi.spyOn(process.stdout, 'write');
  await runVitest(root, [new NeedleworkOtelReporter({ outputFile: 'out/evals.json' })]);
  printed = write.mock.calls.map(([chunk]) => String(chunk)).join('');
  write.mockRestore();
  request = JSON.parse(await readFile(join(root, 'out/evals.json'), 'utf8'));
}, 60_000);

afterAll(() => removeProject(root));

const records = (): OtlpLogRecord[] => request.resourceLogs[0]!.scopeLogs[0]!.logRecords;
const attrs = (record: OtlpLogRecord) =>
  Object.fromEntries(record.attributes.map((a) => [a.key, Object.values(a.value)[0]]));

describe('NeedleworkOtelReporter', () => {
  it('writes valid OTLP/JSON for ExportLogsServiceRequest, by the OTLP protobuf definitions', () => {
    expect(otlpJsonProblems(exportLogsRequestType(), request)).toEqual([]);
  });

  it('survives the protobuf binary encoding a collector would use, ids and times intact', () => {
    const decoded = roundTrip(exportLogsRequestType(), request) as unknown as OtlpExportLogsServiceRequest;
    const back = decoded.resourceLogs[0]!.scopeLogs[0]!.logRecords;
    expect(back.map((r) => [r.eventName, r.traceId ?? '', r.spanId ?? '', r.timeUnixNano])).toEqual(
      records().map((r) => ['gen_ai.evaluation.result', r.traceId ?? '', r.spanId ?? '', r.timeUnixNano]),
    );
  });

  it('writes one gen_ai.evaluation.result event per needlework check, none for plain tests', () => {
    expect(records().map((r) => [r.eventName, attrs(r)['gen_ai.evaluation.name']])).toEqual([
      ['gen_ai.evaluation.result', 'reconciled'],
      ['gen_ai.evaluation.result', 'surfaced'],
      ['gen_ai.evaluation.result', 'traversed'],
    ]);
    expect(printed).toContain(
      `needlework: 3 evaluation events (1 parented to their trace) written to ${join(root, 'out/evals.json')}`,
    );
  });

  it('carries the score, the verdict as label and the explanation, per the GenAI semantic conventions', () => {
    const [reconciled, surfaced, traversed] = records().map(attrs);
    expect(traversed).toMatchObject({
      'gen_ai.evaluation.score.value': 0.5,
      'gen_ai.evaluation.score.label': 'fail',
      'gen_ai.evaluation.explanation': 'expected trajectory >= 0.8, got 0.5: 1 of 2 hops',
      'needlework.spec': 'compound-alpha',
      'needlework.case': 'bridge',
      'needlework.workup': 'traced',
      'needlework.task': 'bridge',
      'needlework.trial': '2',
      // Where the assertion is written, as the check carries it from its spec's load.
      'code.file.path': 'needles/compound-alpha.needle.yaml',
      'code.line.number': '4',
      'code.column.number': '1',
    });
    expect(surfaced).not.toHaveProperty('code.line.number');
    expect(surfaced?.['gen_ai.evaluation.score.value']).toBe(1);
    // A metric that does not apply has no score, only its label.
    expect(reconciled).not.toHaveProperty('gen_ai.evaluation.score.value');
    expect(reconciled).toMatchObject({
      'gen_ai.evaluation.score.label': 'not-applicable',
      'needlework.unit': 'stores',
    });
    expect(records().map((r) => r.severityNumber)).toEqual([9, 9, 13]);
  });

  it('parents the events of a workup from an OTel trace to its trace and span, lowercased', () => {
    const [reconciled, surfaced, traversed] = records();
    expect(traversed).toMatchObject({ traceId: TRACE.toLowerCase(), spanId: SPAN.toLowerCase() });
    expect(reconciled).not.toHaveProperty('traceId');
    expect(surfaced).not.toHaveProperty('spanId');
  });
});

describe('evaluatedSpan', () => {
  it('keeps well-formed ids only: an all-zero or short trace id drops the reference, a bad span id only the span', () => {
    expect(evaluatedSpan({ traceId: '0'.repeat(32), spanId: SPAN })).toBeUndefined();
    expect(evaluatedSpan({ traceId: 'abc' })).toBeUndefined();
    expect(evaluatedSpan({ traceId: TRACE, spanId: 'xyz' })).toEqual({ traceId: TRACE.toLowerCase() });
    expect(evaluatedSpan('nope')).toBeUndefined();
  });
});

describe('otlpJsonProblems', () => {
  it('catches what a collector would reject: unknown keys, numeric 64-bit times, base64 ids, enum names', () => {
    const bad = {
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: 5,
                  traceId: 'W47/95gDgQPSabYzgT/GDA==',
                  severityNumber: 'SEVERITY_NUMBER_INFO',
                  event_name: 'x',
                },
              ],
            },
          ],
        },
      ],
    };
    expect(otlpJsonProblems(exportLogsRequestType(), bad)).toEqual([
      '$.resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano: expected a 64-bit integer as a decimal string, got 5',
      '$.resourceLogs[0].scopeLogs[0].logRecords[0].traceId: expected 32 lowercase hex digits, got "W47/95gDgQPSabYzgT/GDA=="',
      '$.resourceLogs[0].scopeLogs[0].logRecords[0].severityNumber: expected an integer value of SeverityNumber',
      '$.resourceLogs[0].scopeLogs[0].logRecords[0].event_name: no such field in LogRecord',
    ]);
  });
});

describe('evaluationLogsJson', () => {
  /** A check record, needlework's unless `meta` is null (a plain Vitest test). */
  const check = (i: number, meta: Partial<NonNullable<CheckRecord['meta']>> | null): CheckRecord => ({
    name: `c${i}`,
    suitePath: ['s'],
    fullName: `s > c${i}`,
    file: 'a.cases.yaml',
    state: meta?.verdict === 'fail' ? 'failed' : 'passed',
    durationMs: 1,
    errors: [],
    ...(meta && {
      meta: checkMeta({ spec: 's', workup: `w${i}`, workupPath: `runs/w${i}`, criterion: `c${i}`, ...meta }),
    }),
  });
  const options = (overrides: Partial<EvaluationLogsOptions> = {}): EvaluationLogsOptions => ({
    time: new Date('2026-11-27T10:00:00Z'),
    version: '0.1.0',
    spanOf: (meta) =>
      meta.workup === 'w1' ? { traceId: TRACE.toLowerCase(), spanId: SPAN.toLowerCase() } : undefined,
    ...overrides,
  });
  const whole = (checks: CheckRecord[], o: EvaluationLogsOptions) =>
    `${JSON.stringify(buildEvaluationLogs(checks, o), null, 2)}\n`;

  it('writes record by record the text JSON.stringify writes of the whole request, and counts what it wrote', () => {
    const checks = [
      check(0, { verdict: 'pass', value: true }),
      check(1, { verdict: 'fail', value: 0.25, threshold: 0.5, summary: 'line one\nline "two"\ttab' }),
      check(2, null),
      check(3, {
        verdict: 'not-applicable',
        value: null,
        criterion: '\u0000records',
        summary: 'ünïcode ✓ 😀',
      }),
    ];
    const tally = { records: 0, parented: 0 };
    const chunks = [...evaluationLogsJson(checks, options({ serviceName: '\u0000records' }), tally)];
    expect(chunks.join('')).toBe(whole(checks, options({ serviceName: '\u0000records' })));
    // One chunk a record, and the envelope's end.
    expect(chunks).toHaveLength(4);
    expect(tally).toEqual({ records: 3, parented: 1 });
  });

  it('writes what JSON.stringify writes when there is no record: no check, or plain tests only', () => {
    for (const checks of [[], [check(0, null)]]) {
      const tally = { records: 0, parented: 0 };
      expect([...evaluationLogsJson(checks, options(), tally)].join('')).toBe(whole(checks, options()));
      expect(tally).toEqual({ records: 0, parented: 0 });
    }
    expect([...evaluationLogsJson([], options({ version: '' }))].join('')).toBe(
      whole([], options({ version: '' })),
    );
  });
});
