import type { Trajectory, TrajectoryStep } from './trajectory.js';

/**
 * A tool call of a trajectory whose steps are not built yet, as its source wrote it. Lets a reader that needs only
 * the calls (the trajectory match) skip building the steps, and parse each call's arguments only when it compares
 * them.
 */
export interface SourceToolCall {
  /** The step's `tool_name`. */
  readonly tool: string;
  /**
   * The arguments as written, when they were text (JSON or not); `undefined` otherwise. Two calls with the same text
   * have equal `args()`: `args()` is a function of this text alone.
   */
  readonly text: string | undefined;
  /** The step's `tool_input`: parsed on the first call and kept, so the step built later holds the same object. */
  args(): Record<string, unknown>;
}

/** What a trajectory with deferred steps keeps until its steps are read. */
export interface StepSource {
  /** The tool calls, in the order of the `tool_call` steps that `build` gives. */
  readonly calls: readonly SourceToolCall[];
  /** The steps; called once, on the first read of `steps`. */
  build(): TrajectoryStep[];
}

/** A trajectory's fields but its steps. */
export type TrajectoryFields = Omit<Trajectory, 'steps'>;

/**
 * A trajectory whose `steps` are built on their first read, from `source`: an importer's conversion then costs no
 * JSON parsing of tool arguments and results for a reader that never looks at the steps, or only at the calls
 * (`sourceToolCalls`). Every reader sees the same values as if the steps had been built at once: `steps` is an own
 * enumerable accessor that builds them once and gives that same list on every read, so property reads,
 * `JSON.stringify`, spreads, `structuredClone`, `Object.keys` (in `makeTrajectory`'s key order) and Vitest's
 * `toEqual` all read the built steps; assigning `steps` replaces them as it would a data property. It stays an
 * accessor after the first read (replacing it with a data property cost more than building the steps), so
 * `Object.getOwnPropertyDescriptor` and `util.inspect` (`[Getter/Setter]`) tell it from a plain trajectory, and a
 * proxy that passes itself to the getter as the receiver gets a `TypeError` (a plain copy, `{ ...trajectory }`, is a
 * plain trajectory).
 */
export function deferredTrajectory(fields: TrajectoryFields, source: StepSource): Trajectory {
  // Built key by key in `makeTrajectory`'s order, with `steps` defined in its place: an accessor from an object
  // literal (a fresh closure pair per object) costs several times more than one shared through a constant descriptor.
  const trajectory = { task_input: fields.task_input } as Trajectory;
  Object.defineProperty(trajectory, 'steps', DEFERRED);
  trajectory.final_answer = fields.final_answer;
  trajectory.succeeded = fields.succeeded;
  trajectory.total_tokens = fields.total_tokens;
  trajectory.total_latency_ms = fields.total_latency_ms;
  trajectory.metadata = fields.metadata;
  trajectory.task_id = fields.task_id;
  if (fields.messages !== undefined) trajectory.messages = fields.messages;
  new Deferred(trajectory, source);
  return trajectory;
}

/**
 * The tool calls of a trajectory made by `deferredTrajectory` whose steps were never read nor replaced; `undefined`
 * for any other trajectory, whose `steps` are then the truth (they may have been edited since).
 */
export function sourceToolCalls(trajectory: Trajectory): readonly SourceToolCall[] | undefined {
  const source = Deferred.source(trajectory);
  if (source === undefined) return undefined;
  // `steps` redefined or deleted behind the accessor's back: the steps, not the source, are what the user sees.
  if (Object.getOwnPropertyDescriptor(trajectory, 'steps')?.get !== readSteps) return undefined;
  return source.calls;
}

/** The base class's constructor returns the object it is given, so `Deferred` adds its private slot to that object. */
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: returning the target is what stamps the private slot on it.
    return target;
  }
}

/**
 * The private state of a deferred trajectory, kept in a private field stamped on the trajectory itself: invisible to
 * every reader (no key, no symbol; `structuredClone` and spreads skip it), and unlike a `WeakMap` entry it costs
 * neither a hash look-up nor the collector's ephemeron work, which made a `WeakMap` most of the conversion's cost.
 */
class Deferred extends Stamp {
  /** Until the steps are built; `undefined` after. */
  #source: StepSource | undefined;
  /** The steps once built (or assigned). */
  #steps: TrajectoryStep[] | undefined;

  constructor(target: Trajectory, source: StepSource) {
    super(target);
    this.#source = source;
    this.#steps = undefined;
  }

  static source(target: object): StepSource | undefined {
    return #source in target ? target.#source : undefined;
  }

  /** The steps of the first object on `receiver`'s prototype chain that holds a slot (the receiver itself, mostly). */
  static steps(receiver: object): TrajectoryStep[] {
    let target: object | null = receiver;
    while (target !== null && !(#source in target)) target = Object.getPrototypeOf(target);
    if (target === null) {
      // A proxy that passes itself as the receiver, or the accessor copied onto another object: no steps to give,
      // and an empty list would be a silent lie.
      throw new TypeError(
        'trajectory.steps: this trajectory builds its steps when read, and cannot be read through a proxy that passes itself as the receiver, nor through a copy of its property descriptors; wrap or copy a plain copy instead ({ ...trajectory })',
      );
    }
    const holder = target as Deferred;
    if (holder.#steps === undefined) {
      holder.#steps = (holder.#source as StepSource).build();
      holder.#source = undefined;
    }
    return holder.#steps;
  }

  /** Replaces the steps, as assigning a data property would: refused on a frozen trajectory. */
  static assign(receiver: object, steps: TrajectoryStep[]): void {
    if (#source in receiver && !Object.isFrozen(receiver)) {
      receiver.#steps = steps;
      receiver.#source = undefined;
      return;
    }
    // A receiver that inherits the accessor gets an own property, as it would inheriting a data property.
    if (
      !Reflect.defineProperty(receiver, 'steps', {
        value: steps,
        writable: true,
        enumerable: true,
        configurable: true,
      })
    ) {
      throw new TypeError("Cannot assign to read only property 'steps' of object");
    }
  }
}

function readSteps(this: object): TrajectoryStep[] {
  return Deferred.steps(this);
}

function writeSteps(this: object, steps: TrajectoryStep[]): void {
  Deferred.assign(this, steps);
}

// One descriptor, one getter and one setter for every deferred trajectory, so they all share one hidden class.
const DEFERRED: PropertyDescriptor = {
  get: readSteps,
  set: writeSteps,
  enumerable: true,
  configurable: true,
};
