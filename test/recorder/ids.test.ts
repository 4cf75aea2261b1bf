import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRecorder, loadWorkup, type Workup } from '../../src/index.js';
import { MAX_NAME_BYTES } from '../../src/workup/folder-name.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** A workup as loaded, without where it was loaded from (the only thing a recorded workup cannot know). */
function located(workup: Workup): Workup {
  const { path: _path, ...meta } = workup.meta;
  return { ...workup, meta };
}

/** Records a one-answer run with this id, saves it under a fresh folder, and reads it back. */
async function roundTrip(id: string) {
  const parent = await tmp();
  const recorder = createRecorder({ id });
  recorder.answer('x');
  const dir = await recorder.save(parent);
  return { parent, dir, recorded: recorder.workup(), loaded: await loadWorkup(dir) };
}

describe('recorded ids become safe folder names, and the saved workup is the recorded one', () => {
  it.each(['..', '.', '.hidden'])(
    'saves the id %j inside the folder given, never in it or its parent',
    async (id) => {
      const { parent, dir, recorded, loaded } = await roundTrip(id);
      expect(dirname(dir)).toBe(parent);
      expect(basename(dir)).toMatch(/^_/);
      expect(await readdir(parent)).toEqual([basename(dir)]);
      expect(located(loaded)).toEqual(recorded);
      expect(loaded.id).toBe(id);
    },
  );

  it('bounds a 300-character id to a short folder name with a hash, instead of ENAMETOOLONG', async () => {
    const id = 'é'.repeat(300);
    const { dir, loaded } = await roundTrip(id);
    expect(Buffer.byteLength(basename(dir))).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(basename(dir)).toMatch(/-[0-9a-f]{16}$/);
    expect(loaded.id).toBe(id);
  });

  it('gives back an id with a colon as it was recorded, not renamed', async () => {
    const { dir, recorded, loaded } = await roundTrip('run:2026-11-23T10:00');
    expect(basename(dir)).toBe('run_2026-11-23T10_00');
    expect(located(loaded)).toEqual(recorded);
  });
});

describe('the recorder refuses, when recording, what loadWorkup would refuse later', () => {
  it.each([
    [{ trial: 0 }, 'trial must be a positive integer or a non-empty label, got 0'],
    [{ trial: 1.5 }, 'trial must be a positive integer or a non-empty label, got 1.5'],
    [{ trial: -1 }, 'trial must be a positive integer or a non-empty label, got -1'],
    [{ task: '' }, 'task must be a non-empty string, got ""'],
    [{ meta: { trial: '' } }, 'trial must be a positive integer or a non-empty label, got ""'],
    // A null task or trial fell back to meta's and was then written as null.
    [{ task: null }, 'task must be a non-empty string, got null'],
    [{ trial: null, meta: { trial: 2 } }, 'trial must be a positive integer or a non-empty label, got null'],
    [{ input: 7 }, 'createRecorder: the input must be a string, got 7'],
    [{ meta: 'model m' }, 'createRecorder: the meta fields must be an object, got "model m"'],
  ])('%j', (options, message) => {
    // As a JavaScript caller can pass them: the types would refuse some.
    const untypedCreate = createRecorder as unknown as (options: Record<string, unknown>) => unknown;
    expect(() => untypedCreate({ id: 'r', ...options })).toThrow(`recorder "r": ${message}`);
  });

  it('refuses no options at all, as a JavaScript caller can pass them', () => {
    const untypedCreate = createRecorder as unknown as (options?: unknown) => unknown;
    expect(() => untypedCreate()).toThrow(
      'recorder: createRecorder: the options must be an object with an id, got undefined',
    );
    expect(() => untypedCreate(null)).toThrow(
      'recorder: createRecorder: the options must be an object with an id, got null',
    );
  });

  it('refuses an empty id', () => {
    expect(() => createRecorder({ id: '' })).toThrow('recorder "": id must be a non-empty string, got ""');
  });

  it('refuses a bad trial given later through setMeta, and keeps the run', () => {
    const recorder = createRecorder({ id: 'r' });
    expect(() => recorder.setMeta({ trial: 1.5 })).toThrow('trial must be a positive integer');
    recorder.setMeta({ trial: 2 });
    expect(recorder.workup().meta.trial).toBe(2);
  });

  it('takes a trial past 2^53 as the text the loader reads back, in workup() as in the saved run', async () => {
    const recorder = createRecorder({ id: 'r', trial: 12345678901234567890n as never });
    const back = await loadWorkup(await recorder.save(join(await tmp(), 'runs')));
    expect(recorder.workup().meta.trial).toBe('12345678901234567890');
    expect(back.meta.trial).toBe('12345678901234567890');
  });

  it('takes a trial given as a bigint as the number it is', async () => {
    const recorder = createRecorder({ id: 'r', meta: { trial: 3n } });
    expect(recorder.workup().meta.trial).toBe(3);
    expect((await loadWorkup(await recorder.save(join(await tmp(), 'runs')))).meta.trial).toBe(3);
  });
});

describe("the recorder's methods refuse arguments of the wrong kind, as JavaScript callers can pass them", () => {
  // Found by the fuzzer's recorder kind: a call id that was not a string was a TypeError (callId.replace).
  const untyped = (recorder: ReturnType<typeof createRecorder>) =>
    recorder as unknown as Record<string, (...args: unknown[]) => unknown>;

  it('takes a numeric call id as its decimal text, and the result finds its call by either', async () => {
    const recorder = createRecorder({ id: 'r' });
    expect(untyped(recorder)['toolCall']!('search', { q: 'x' }, 7)).toBe('7');
    untyped(recorder)['toolResult']!(7, { ok: true });
    recorder.answer('x');
    const back = await loadWorkup(await recorder.save(join(await tmp(), 'runs')));
    expect(back.trajectory?.steps.map((step) => step.tool_name)).toEqual(['search', 'search', null]);
  });

  it.each([
    [
      'toolCall',
      ['search', {}, { id: 1 }],
      'toolCall: the call id must be a string or a number, got {"id":1}',
    ],
    ['toolCall', [42, {}], 'toolCall: the tool name must be a non-empty string, got 42'],
    ['toolCall', ['', {}], 'toolCall: the tool name must be a non-empty string, got ""'],
    ['toolResult', [null, {}], 'toolResult: the call id must be a string or a number, got null'],
    ['answer', [{ text: 'x' }], 'answer: the text must be a string, got {"text":"x"}'],
    ['note', [['# x']], 'note: the note must be a string, got ["# x"]'],
    // Found by the fuzzer: each was written, then refused by loadWorkup (a step's latency or tokens negative or not a
    // number, a total of tokens made a string by a usage report of text).
    [
      'toolCall',
      ['search', {}, 'c1', { latencyMs: -5 }],
      'toolCall: latencyMs must be a finite number, 0 or more, got -5',
    ],
    [
      'toolResult',
      ['c1', {}, { tokens: '12' }],
      'toolResult: tokens must be a finite number, 0 or more, got "12"',
    ],
    ['answer', ['x', { tokens: -1 }], 'answer: tokens must be a finite number, 0 or more, got -1'],
    [
      'thought',
      ['x', { latencyMs: Number.NaN }],
      'thought: latencyMs must be a finite number, 0 or more, got null',
    ],
    [
      'usage',
      [{ outputTokens: 'many' }],
      'usage: outputTokens must be a finite number, 0 or more, got "many"',
    ],
    ['usage', [{ costUsd: -0.5 }], 'usage: costUsd must be a finite number, 0 or more, got -0.5'],
    ['usage', [null], 'usage: the usage must be an object { inputTokens, outputTokens, costUsd }, got null'],
    ['setMeta', [[1]], 'setMeta: the fields must be an object, got [1]'],
  ])('%s(%j)', (method, args, message) => {
    const recorder = createRecorder({ id: 'r' });
    recorder.toolCall('search', {}, 'c1');
    expect(() => untyped(recorder)[method]!(...args)).toThrow(`recorder "r": ${message}`);
  });

  it('refuses a value nested deeper than a saved workup is read, and keeps the run as it was', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 600; i++) deep = [deep];
    const recorder = createRecorder({ id: 'r' });
    expect(() => recorder.toolCall('search', deep)).toThrow(
      'recorder "r": toolCall: the input is nested 600 levels deep; a saved workup is read to 512 levels, so at most 508 here',
    );
    recorder.toolCall('search', { q: 1 }, 'c1');
    expect(() => recorder.toolResult('c1', deep)).toThrow('toolResult: the output is nested 600 levels deep');
    expect(() => recorder.setMeta({ trace: deep })).toThrow(
      'setMeta: meta field "trace" is nested 600 levels deep; a saved workup is read to 512 levels, so at most 511 here',
    );
    expect(() => recorder.answer(7 as never)).toThrow('answer: the text must be a string');
    // Refused calls leave nothing behind: the run saves and loads back as recorded.
    let fits: unknown = 'x';
    for (let i = 0; i < 508; i++) fits = [fits];
    recorder.toolResult('c1', fits);
    const back = await loadWorkup(await recorder.save(join(await tmp(), 'runs')));
    expect(located(back)).toEqual(JSON.parse(JSON.stringify(recorder.workup())));
    expect(back.trajectory?.final_answer).toBeNull();
  });
});
