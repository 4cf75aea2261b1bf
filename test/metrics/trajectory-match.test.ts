import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromOpenAIMessages } from '../../src/adapters/openai.js';
import {
  alignTrajectory,
  type MatchTrajectoryOptions,
  matchTrajectory,
  type ToolArgsMatchMode,
  type ToolArgsOverride,
  type TrajectoryMatchMode,
} from '../../src/metrics/trajectory/index.js';
import { makeStep, makeTrajectory, type Trajectory } from '../../src/model/index.js';
import { pythonUnavailable, runReference } from '../reference/python.js';

type Call = { tool: string | null; args: Record<string, unknown> | null };

/** A trajectory whose tool calls are `calls`, each followed by its observation (which the match ignores). */
function traj(calls: Call[]): Trajectory {
  return makeTrajectory({
    task_id: 't',
    steps: calls.flatMap((c, i) => [
      makeStep({ step_id: 2 * i + 1, step_type: 'tool_call', tool_name: c.tool, tool_input: c.args }),
      makeStep({ step_id: 2 * i + 2, step_type: 'observation', content: 'ok' }),
    ]),
  });
}
const c = (tool: string, args: Record<string, unknown> = {}) => ({ tool, args });

const search = c('search', { q: 'Wren' });
const read = c('read', { id: 'g11' });
const weather = c('weather', { city: 'Paris', units: 'C' });

describe('matchTrajectory modes', () => {
  it('strict: the same calls in the same order; a failure names the differing calls', () => {
    expect(matchTrajectory(traj([search, read]), traj([search, read]))).toEqual({
      pass: true,
      missing: [],
      extra: [],
    });
    expect(matchTrajectory(traj([read, search]), traj([search, read]), { mode: 'strict' })).toEqual({
      pass: false,
      missing: [search, read],
      extra: [read, search],
    });
    expect(matchTrajectory(traj([search]), traj([search, read]))).toEqual({
      pass: false,
      missing: [read],
      extra: [],
    });
  });

  it('unordered: the same calls in any order, both ways', () => {
    expect(matchTrajectory(traj([read, search]), traj([search, read]), { mode: 'unordered' }).pass).toBe(
      true,
    );
    expect(
      matchTrajectory(traj([read, search, weather]), traj([search, read]), { mode: 'unordered' }),
    ).toEqual({
      pass: false,
      missing: [],
      extra: [weather],
    });
    // multiplicity counts: each call covers one call
    expect(matchTrajectory(traj([search]), traj([search, search]), { mode: 'unordered' })).toEqual({
      pass: false,
      missing: [search],
      extra: [],
    });
  });

  it('subset: every actual call is in the reference; superset: every reference call is in the actual run', () => {
    expect(matchTrajectory(traj([search]), traj([search, read]), { mode: 'subset' }).pass).toBe(true);
    expect(matchTrajectory(traj([search, weather]), traj([search, read]), { mode: 'subset' })).toEqual({
      pass: false,
      missing: [],
      extra: [weather],
    });
    expect(
      matchTrajectory(traj([weather, read, search]), traj([search, read]), { mode: 'superset' }).pass,
    ).toBe(true);
    expect(matchTrajectory(traj([search]), traj([search, read]), { mode: 'superset' })).toEqual({
      pass: false,
      missing: [read],
      extra: [],
    });
  });

  it('defines the empty cases', () => {
    const none = traj([]);
    for (const mode of ['strict', 'unordered', 'subset', 'superset'] as const) {
      expect(matchTrajectory(none, none, { mode }).pass).toBe(true);
    }
    expect(matchTrajectory(traj([search]), none, { mode: 'superset' }).pass).toBe(true);
    expect(matchTrajectory(traj([search]), none, { mode: 'subset' }).pass).toBe(false);
    expect(matchTrajectory(none, traj([search]), { mode: 'subset' }).pass).toBe(true);
  });

  it('keeps agentevals greedy matching, which can miss an assignment that exists', () => {
    // superset args: an actual call matches when its args contain the reference's. The first reference call takes
    // the first actual call that fits, {x, y}, leaving {x} for a reference call that needs y: agentevals fails it.
    const actual = traj([c('f', { x: 1, y: 2 }), c('f', { x: 1 })]);
    const reference = traj([c('f', { x: 1 }), c('f', { x: 1, y: 2 })]);
    expect(matchTrajectory(actual, reference, { mode: 'superset', toolArgs: 'superset' })).toEqual({
      pass: false,
      missing: [c('f', { x: 1, y: 2 })],
      extra: [],
    });
  });

  it('throws a TypeError naming the function for an unknown mode', () => {
    const bad = { mode: 'fuzzy' } as unknown as MatchTrajectoryOptions;
    expect(() => matchTrajectory(traj([]), traj([]), bad)).toThrow(
      new TypeError('matchTrajectory: unknown mode "fuzzy"'),
    );
  });
});

describe('tool argument matching', () => {
  const partial = c('weather', { city: 'Paris' });

  it('exact compares with Python equality (true == 1, key order ignored); a call without input is {}', () => {
    expect(matchTrajectory(traj([c('f', { a: true, b: 2 })]), traj([c('f', { b: 2, a: 1 })])).pass).toBe(
      true,
    );
    expect(matchTrajectory(traj([c('f', { a: '1' })]), traj([c('f', { a: 1 })])).pass).toBe(false);
    expect(matchTrajectory(traj([{ tool: 'f', args: null }]), traj([c('f', {})])).pass).toBe(true);
  });

  it('ignore compares tool names only', () => {
    expect(
      matchTrajectory(traj([c('weather', { city: 'Oslo' })]), traj([weather]), { toolArgs: 'ignore' }).pass,
    ).toBe(true);
    expect(
      matchTrajectory(traj([c('forecast', weather.args)]), traj([weather]), { toolArgs: 'ignore' }).pass,
    ).toBe(false);
  });

  it('subset and superset take the actual call first in strict and superset modes', () => {
    expect(matchTrajectory(traj([partial]), traj([weather]), { toolArgs: 'subset' }).pass).toBe(true);
    expect(matchTrajectory(traj([weather]), traj([partial]), { toolArgs: 'subset' }).pass).toBe(false);
    expect(matchTrajectory(traj([weather]), traj([partial]), { toolArgs: 'superset' }).pass).toBe(true);
    expect(
      matchTrajectory(traj([weather]), traj([partial]), { mode: 'superset', toolArgs: 'superset' }).pass,
    ).toBe(true);
  });

  it('passes the reference call first in subset mode, as agentevals does', () => {
    // subset mode checks _is_trajectory_superset(reference, actual): the matcher sees (reference args, actual args)
    expect(
      matchTrajectory(traj([weather]), traj([partial]), { mode: 'subset', toolArgs: 'subset' }).pass,
    ).toBe(true);
    expect(
      matchTrajectory(traj([weather]), traj([partial]), { mode: 'subset', toolArgs: 'superset' }).pass,
    ).toBe(false);
    const seen: unknown[] = [];
    const spy: ToolArgsOverride = (first, second) => {
      seen.push([first, second]);
      return true;
    };
    matchTrajectory(traj([weather]), traj([partial]), {
      mode: 'subset',
      toolArgsOverrides: { weather: spy },
    });
    expect(seen).toEqual([[partial.args, weather.args]]);
  });

  it('applies a per-tool override: a mode, dot-path keys, or a function', () => {
    const actual = traj([c('weather', { city: 'Paris', units: 'F' }), c('search', { q: 'Wren', page: 2 })]);
    const reference = traj([weather, search]);
    expect(matchTrajectory(actual, reference).pass).toBe(false);
    expect(
      matchTrajectory(actual, reference, { toolArgsOverrides: { weather: ['city'], search: 'superset' } })
        .pass,
    ).toBe(true);
    expect(
      matchTrajectory(actual, reference, {
        toolArgsOverrides: { weather: (a, r) => a.city === r.city, search: ['q'] },
      }).pass,
    ).toBe(true);
  });

  it('reads dot paths through nested objects, a missing path or null reading as null', () => {
    const a = traj([c('f', { filter: { city: 'Paris', day: 1 } })]);
    const keys = (k: string[]): MatchTrajectoryOptions => ({ toolArgsOverrides: { f: k } });
    expect(
      matchTrajectory(a, traj([c('f', { filter: { city: 'Paris', day: 2 } })]), keys(['filter.city'])).pass,
    ).toBe(true);
    expect(matchTrajectory(a, traj([c('f', { filter: { city: 'Oslo' } })]), keys(['filter.city'])).pass).toBe(
      false,
    );
    expect(matchTrajectory(a, traj([c('f', { filter: null })]), keys(['filter.zip'])).pass).toBe(true);
    expect(matchTrajectory(a, traj([c('f', { filter: 'Paris' })]), keys(['filter.city.name'])).pass).toBe(
      true,
    );
  });

  it('ignores an empty key list, as agentevals treats a falsy override as none', () => {
    const actual = traj([c('weather', { city: 'Oslo' })]);
    expect(matchTrajectory(actual, traj([weather]), { toolArgsOverrides: { weather: [] } }).pass).toBe(false);
    expect(
      matchTrajectory(actual, traj([weather]), { toolArgs: 'ignore', toolArgsOverrides: { weather: [] } })
        .pass,
    ).toBe(true);
  });
});

// Generated cases: a small pool of tools and arguments, so that calls collide, nest and differ by one key.
const ARGS: Record<string, unknown>[] = [
  {},
  { x: 1 },
  { x: true },
  { x: 1, y: 2 },
  { x: 2 },
  { x: null },
  { q: { city: 'Paris' } },
  { q: { city: 'Paris', n: 2 } },
  { q: { city: 'Oslo' } },
  { q: null },
  { q: [1, 2] },
];
const genCall = fc.record({ tool: fc.constantFrom('f', 'g', 'h'), args: fc.constantFrom(...ARGS) });
const calls = fc.array(genCall, { maxLength: 5 });
const MODES: TrajectoryMatchMode[] = ['strict', 'unordered', 'subset', 'superset'];
const ARG_MODES: ToolArgsMatchMode[] = ['exact', 'ignore', 'subset', 'superset'];
const override = fc.oneof(
  fc.constantFrom<ToolArgsOverride>(...ARG_MODES),
  fc.constantFrom<ToolArgsOverride>(['x'], ['q.city'], ['x', 'q.n'], [], ['q.city.name']),
);
const matchCase = fc.record({
  actual: calls,
  reference: calls,
  mode: fc.constantFrom(...MODES),
  toolArgs: fc.constantFrom(...ARG_MODES),
  overrides: fc.option(fc.dictionary(fc.constantFrom('f', 'g'), override, { maxKeys: 2 }), {
    nil: undefined,
  }),
});

describe('parity with agentevals (live python3)', () => {
  it('gives the verdicts of the re-typed agentevals scorers on 4,000 generated cases', (ctx) => {
    if (pythonUnavailable) return ctx.skip(pythonUnavailable);
    const cases = fc.sample(matchCase, { numRuns: 4000, seed: 99 });
    const py = runReference<boolean[]>('agentevals_match.py', {
      cases: cases.map((k) => ({
        actual: k.actual.map((x) => ({ name: x.tool, args: x.args })),
        reference: k.reference.map((x) => ({ name: x.tool, args: x.args })),
        mode: k.mode,
        tool_args: k.toolArgs,
        overrides: k.overrides ?? null,
      })),
    });
    expect(py.filter(Boolean).length).toBeGreaterThan(400);
    expect(py.filter((v) => !v).length).toBeGreaterThan(400);
    cases.forEach((k, i) => {
      const result = matchTrajectory(traj(k.actual), traj(k.reference), {
        mode: k.mode,
        toolArgs: k.toolArgs,
        toolArgsOverrides: k.overrides,
      });
      expect(result.pass, JSON.stringify(k)).toBe(py[i]);
    });
  });
});

describe('properties', () => {
  it('passes exactly when nothing is missing or extra', () => {
    fc.assert(
      fc.property(matchCase, (k) => {
        const r = matchTrajectory(traj(k.actual), traj(k.reference), {
          mode: k.mode,
          toolArgs: k.toolArgs,
          toolArgsOverrides: k.overrides,
        });
        expect(r.pass).toBe(r.missing.length === 0 && r.extra.length === 0);
      }),
    );
  });

  it('strict implies unordered, which is subset and superset together (symmetric argument modes)', () => {
    fc.assert(
      fc.property(calls, calls, fc.constantFrom<ToolArgsMatchMode>('exact', 'ignore'), (a, b, toolArgs) => {
        const [x, y] = [traj(a), traj(b)];
        const strict = matchTrajectory(x, y, { mode: 'strict', toolArgs }).pass;
        const unordered = matchTrajectory(x, y, { mode: 'unordered', toolArgs }).pass;
        const subset = matchTrajectory(x, y, { mode: 'subset', toolArgs }).pass;
        const superset = matchTrajectory(x, y, { mode: 'superset', toolArgs }).pass;
        if (strict) expect(unordered).toBe(true);
        expect(unordered).toBe(subset && superset);
      }),
    );
  });

  it('matches every trajectory with itself in every mode', () => {
    fc.assert(
      fc.property(
        calls,
        fc.constantFrom(...MODES),
        fc.constantFrom<ToolArgsMatchMode>(...ARG_MODES),
        (a, mode, toolArgs) => {
          expect(matchTrajectory(traj(a), traj(a), { mode, toolArgs }).pass).toBe(true);
        },
      ),
    );
  });
});

describe('alignTrajectory: the pairing the verdict rests on', () => {
  it("gives matchTrajectory's result, and names its missing and extra calls by position", () => {
    fc.assert(
      fc.property(matchCase, (k) => {
        const options = { mode: k.mode, toolArgs: k.toolArgs, toolArgsOverrides: k.overrides };
        const [actual, reference] = [traj(k.actual), traj(k.reference)];
        const { alignment, ...result } = alignTrajectory(actual, reference, options);
        expect(result).toEqual(matchTrajectory(actual, reference, options));
        const asCall = (x: Call) => ({ tool: x.tool, args: x.args ?? {} });
        expect(alignment.missing.map((j) => asCall(k.reference[j]!))).toEqual(result.missing);
        expect(alignment.extra.map((i) => asCall(k.actual[i]!))).toEqual(result.extra);
        // A call is paired once at most, with a call of its own tool, and never also missing or extra.
        const left = new Set(alignment.pairs.map(([i]) => i));
        const right = new Set(alignment.pairs.map(([, j]) => j));
        expect(left.size).toBe(alignment.pairs.length);
        expect(right.size).toBe(alignment.pairs.length);
        for (const [i, j] of alignment.pairs) expect(k.actual[i]!.tool).toBe(k.reference[j]!.tool);
        for (const j of alignment.missing) expect(right.has(j)).toBe(false);
        if (k.mode !== 'unordered') for (const i of alignment.extra) expect(left.has(i)).toBe(false);
        // Every reference call is paired or missing where the mode requires it; every actual call where it forbids extras.
        if (k.mode !== 'subset') expect(right.size + alignment.missing.length).toBe(k.reference.length);
        if (k.mode === 'subset' || k.mode === 'strict')
          expect(left.size + alignment.extra.length).toBe(k.actual.length);
      }),
    );
  });

  it('pairs out-of-order calls in an unordered match, and leaves allowed extras unpaired in a superset match', () => {
    const a = alignTrajectory(traj([read, search]), traj([search, read]), { mode: 'unordered' });
    expect(a.pass).toBe(true);
    expect(a.alignment).toEqual({
      pairs: [
        [1, 0],
        [0, 1],
      ],
      missing: [],
      extra: [],
    });
    const b = alignTrajectory(traj([weather, search, read]), traj([search]), { mode: 'superset' });
    expect(b.alignment).toEqual({ pairs: [[1, 0]], missing: [], extra: [] });
    const strict = alignTrajectory(traj([search, weather]), traj([search, read, read]), { mode: 'strict' });
    expect(strict.alignment).toEqual({ pairs: [[0, 0]], missing: [1, 2], extra: [1] });
  });
});

describe('chat logs whose steps were never read', () => {
  // Argument texts that are equal once parsed but not as text, malformed JSON, JSON that is no object, a long integer,
  // and arguments given as an object rather than text: the match must give the same result as on the built steps.
  const ARG_TEXTS: unknown[] = [
    '{"x": 1}',
    '{"x":1}',
    '{"x": 1.0}',
    '{"x": true}',
    '{"y": 2, "x": 1}',
    '{"x": 1, "y": 2}',
    '{"q": {"city": "Paris"}}',
    '{ "q": {"city":"Paris", "n": 2} }',
    '{"q": null}',
    '{"x": 123456789012345678901}',
    'ls -la {',
    '[1, 2]',
    '',
    { x: 1 },
  ];
  const turns = fc.array(
    fc.array(fc.record({ tool: fc.constantFrom('f', 'g'), args: fc.constantFrom(...ARG_TEXTS) }), {
      minLength: 1,
      maxLength: 2,
    }),
    { maxLength: 3 },
  );
  function chat(log: { tool: string; args: unknown }[][]): unknown[] {
    const messages: unknown[] = [{ role: 'user', content: 'go' }];
    let id = 0;
    for (const turn of log) {
      const tool_calls = turn.map((call) => ({
        id: `c${id++}`,
        type: 'function',
        function: { name: call.tool, arguments: call.args },
      }));
      messages.push({ role: 'assistant', content: null, tool_calls });
      for (const call of tool_calls)
        messages.push({ role: 'tool', tool_call_id: call.id, content: '{"ok": 1}' });
    }
    messages.push({ role: 'assistant', content: 'done' });
    return messages;
  }
  /** The same log with its steps read first, so the match reads the built steps. */
  function read(messages: unknown[]): Trajectory {
    const trajectory = fromOpenAIMessages(messages);
    void trajectory.steps;
    return trajectory;
  }
  // A custom function that looks at the text of the arguments: it must be called even for equal argument texts.
  const sameKeys: ToolArgsOverride = (a, b) => Object.keys(a).join() === Object.keys(b).join();

  it('gives the verdict, missing and extra calls of the built steps, in every mode and argument mode', () => {
    fc.assert(
      fc.property(
        turns,
        turns,
        fc.constantFrom(...MODES),
        fc.constantFrom(...ARG_MODES),
        fc.option(
          fc.dictionary(
            fc.constantFrom('f', 'g'),
            fc.oneof(fc.constantFrom<ToolArgsOverride>('exact', ['x'], ['q.city']), fc.constant(sameKeys)),
            { maxKeys: 2 },
          ),
          { nil: undefined },
        ),
        (a, b, mode, toolArgs, toolArgsOverrides) => {
          const options = { mode, toolArgs, ...(toolArgsOverrides ? { toolArgsOverrides } : {}) };
          const [output, reference] = [chat(a), chat(b)];
          expect(matchTrajectory(fromOpenAIMessages(output), fromOpenAIMessages(reference), options)).toEqual(
            matchTrajectory(read(output), read(reference), options),
          );
        },
      ),
      { numRuns: 500, seed: 15 },
    );
  });

  it('aligns the calls of a strict match over messages: parallel calls in any order, by position', () => {
    const output = chat([
      [
        { tool: 'g', args: '{"x":1}' },
        { tool: 'f', args: '{"x":1}' },
      ],
      [{ tool: 'h', args: '{}' }],
    ]);
    const reference = chat([
      [
        { tool: 'f', args: '{"x":1}' },
        { tool: 'g', args: '{"x":1}' },
      ],
      [{ tool: 'f', args: '{}' }],
    ]);
    const { alignment } = alignTrajectory(fromOpenAIMessages(output), fromOpenAIMessages(reference));
    expect(alignment).toEqual({
      pairs: [
        [0, 1],
        [1, 0],
      ],
      missing: [2],
      extra: [2],
    });
  });

  it('calls a custom argument function even when the argument texts are equal', () => {
    const log = chat([[{ tool: 'f', args: '{"x": 1}' }]]);
    const never: ToolArgsOverride = () => false;
    const result = matchTrajectory(fromOpenAIMessages(log), fromOpenAIMessages(log), {
      toolArgsOverrides: { f: never },
    });
    expect(result).toEqual({ pass: false, missing: [c('f', { x: 1 })], extra: [c('f', { x: 1 })] });
  });

  it('matches equal texts of malformed arguments, and reports them parsed as the steps hold them', () => {
    const output = fromOpenAIMessages(chat([[{ tool: 'f', args: 'ls -la {' }]]));
    const reference = fromOpenAIMessages(chat([[{ tool: 'f', args: 'ls -la' }]]));
    expect(matchTrajectory(output, fromOpenAIMessages(chat([[{ tool: 'f', args: 'ls -la {' }]]))).pass).toBe(
      true,
    );
    expect(matchTrajectory(output, reference)).toEqual({
      pass: false,
      missing: [c('f', { input: 'ls -la' })],
      extra: [c('f', { input: 'ls -la {' })],
    });
  });

  it('compares the steps as edited once they were read', () => {
    const log = chat([[{ tool: 'f', args: '{"x": 1}' }]]);
    const edited = fromOpenAIMessages(log);
    edited.steps[0]!.tool_input = { x: 2 };
    expect(matchTrajectory(edited, fromOpenAIMessages(log)).pass).toBe(false);
    const replaced = fromOpenAIMessages(log);
    replaced.steps = [];
    expect(matchTrajectory(replaced, fromOpenAIMessages(log), { mode: 'superset' }).pass).toBe(false);
  });
});
