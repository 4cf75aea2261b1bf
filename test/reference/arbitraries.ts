import fc from 'fast-check';
import {
  makeStep,
  makeTrajectory,
  STEP_TYPES,
  type Trajectory,
  type TrajectoryStep,
} from '../../src/model/index.js';

/**
 * Generators of JSON values and seed 002 trajectories for the parity and property tests. Values are built to reach
 * every branch of Python's `json.dumps(sort_keys=True)`: escapes, non-ASCII and astral characters (also in keys,
 * whose order Python takes by code point), lone surrogates, integers and floats of every exponent. Floats with an
 * integral value below 1e21 are left out: `JSON.parse` cannot tell them from integers (see `pythonJsonDumps`).
 */
const keyChars = fc.constantFrom(
  'a',
  'b',
  'B',
  '_',
  '1',
  ' ',
  '"',
  '\\',
  '\n',
  '\u00e9',
  '\uff01',
  '\u{1f600}',
  '\ud800',
);
export const jsonKey = fc.array(keyChars, { maxLength: 3 }).map((cs) => cs.join(''));

const float = fc
  .double({ noNaN: true, noDefaultInfinity: true })
  .filter((x) => !(Number.isInteger(x) && Math.abs(x) < 1e21));

export const jsonLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.maxSafeInteger(),
  float,
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('Halberd', 'Wren', 'Ash Cell', ''),
);

export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(jsonKey, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Tool arguments drawn from a small pool, so calls repeat and predictions share calls with their golds. */
const toolInput: fc.Arbitrary<Record<string, unknown> | null> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      {},
      { entity: 'Halberd' },
      { entity: 'Wren' },
      { q: 'x', k: 2 },
      { k: 2, q: 'x' },
    ),
  },
  { weight: 2, arbitrary: fc.dictionary(jsonKey, jsonValue, { maxKeys: 3 }) },
);

const toolName = fc.constantFrom<string | null>('graph.neighbors', 'docs.search', 'ledger.read', 'web', null);

const step: fc.Arbitrary<Omit<TrajectoryStep, 'step_id'>> = fc.record({
  step_type: fc.constantFrom(...STEP_TYPES),
  content: fc.constantFrom('', 'thinking', '{"entity": "Halberd"}'),
  tool_name: toolName,
  tool_input: toolInput,
  tool_output: fc.constant(null),
  timestamp: fc.constant(null),
  latency_ms: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e4, noNaN: true })),
  tokens_used: fc.nat(500),
  error: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('', 'timeout') },
  ),
});

/** A trajectory of `minSteps` to `maxSteps` steps; ids increase from 1, or (one time in four) are drawn at random. */
export function trajectory(maxSteps = 12, minSteps = 0): fc.Arbitrary<Trajectory> {
  return fc
    .record({
      task_id: fc.constantFrom('t1', 't2', 'grounded'),
      steps: fc.array(step, { minLength: minSteps, maxLength: maxSteps }),
      shuffledIds: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: maxSteps, maxLength: maxSteps }),
      randomIds: fc.integer({ min: 0, max: 3 }).map((x) => x === 0),
      succeeded: fc.boolean(),
      total_tokens: fc.nat(100000),
      total_latency_ms: fc.oneof(fc.nat(100000), fc.double({ min: 0, max: 1e6, noNaN: true })),
    })
    .map(({ steps, shuffledIds, randomIds, ...rest }) =>
      makeTrajectory({
        ...rest,
        steps: steps.map((s, i) =>
          makeStep({ ...s, step_id: randomIds ? (shuffledIds[i] as number) : i + 1 }),
        ),
      }),
    );
}

/** A prediction and a gold; half the time the gold reuses the prediction's tool calls, reordered and cut. */
export const trajectoryPair: fc.Arbitrary<[Trajectory, Trajectory]> = fc.oneof(
  fc.tuple(trajectory(), trajectory()),
  fc.tuple(trajectory(), fc.infiniteStream(fc.boolean()), fc.boolean()).map(([pred, keep, reverse]) => {
    const calls = pred.steps.filter((s) => s.step_type === 'tool_call' && keep.next().value);
    const ordered = reverse ? [...calls].reverse() : calls;
    const gold = makeTrajectory({
      task_id: pred.task_id,
      steps: ordered.map((s, i) => ({ ...s, step_id: i + 1 })),
    });
    return [pred, gold] as [Trajectory, Trajectory];
  }),
);
