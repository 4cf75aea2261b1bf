import fc from 'fast-check';

/** An OpenAI Chat Completions message, as the generators below write them. */
export type OpenAIMessage = Record<string, unknown>;

/**
 * Argument objects drawn from a small pool, so calls collide, nest and differ by one key. Values on which Python's
 * `==` (needlework's rule) and the JS agentevals' `_deepEqual` disagree are left out: `true`/`false` against `1`/`0`,
 * and objects with index keys (`{"0": 2}` equals `[2]` in the JS package).
 */
const ARGS: Record<string, unknown>[] = [
  {},
  { x: 2 },
  { x: true },
  { x: 2, y: 3 },
  { y: 3, x: 2 },
  { x: 'Wren' },
  { x: null },
  { q: { city: 'Paris' } },
  { q: { city: 'Paris', n: 2 } },
  { q: { city: 'Oslo' } },
  { q: null },
  { q: [2, 3] },
];

export interface GeneratedCall {
  name: string;
  args: Record<string, unknown>;
}

const call: fc.Arbitrary<GeneratedCall> = fc.record({
  name: fc.constantFrom('f', 'g', 'h'),
  args: fc.constantFrom(...ARGS),
});

/** One assistant turn: its text, and its calls (`null`: no `tool_calls` field; `[]`: an empty one). */
interface Turn {
  text: string | null;
  calls: GeneratedCall[] | null;
}

const turn: fc.Arbitrary<Turn> = fc.record({
  text: fc.constantFrom(null, '', 'Let me look.'),
  calls: fc.oneof(
    { weight: 1, arbitrary: fc.constant<GeneratedCall[] | null>(null) },
    { weight: 1, arbitrary: fc.constant<GeneratedCall[] | null>([]) },
    { weight: 5, arbitrary: fc.array(call, { minLength: 1, maxLength: 3 }) },
  ),
});

interface Conversation {
  system: boolean;
  turns: Turn[];
  answer: boolean;
}

const conversation: fc.Arbitrary<Conversation> = fc.record({
  system: fc.boolean(),
  turns: fc.array(turn, { maxLength: 4 }),
  answer: fc.boolean(),
});

/** The message list of a conversation: each call answered by a `tool` message right after its assistant message. */
export function toMessages(c: Conversation): OpenAIMessage[] {
  const messages: OpenAIMessage[] = [];
  if (c.system) messages.push({ role: 'system', content: 'You are a careful analyst.' });
  messages.push({ role: 'user', content: 'Where is Wren?' });
  let id = 0;
  for (const t of c.turns) {
    const message: OpenAIMessage = { role: 'assistant', content: t.text };
    const ids: string[] = [];
    if (t.calls !== null) {
      message['tool_calls'] = t.calls.map((k) => {
        const callId = `call_${id++}`;
        ids.push(callId);
        return {
          id: callId,
          type: 'function',
          function: { name: k.name, arguments: JSON.stringify(k.args) },
        };
      });
    }
    messages.push(message);
    for (const callId of ids) messages.push({ role: 'tool', tool_call_id: callId, content: '{"ok": true}' });
  }
  if (c.answer) messages.push({ role: 'assistant', content: 'Wren is in Oslo.' });
  return messages;
}

/** Small edits of a conversation that keep it close to the original, so that about half the pairs match. */
const edit = (c: Conversation): fc.Arbitrary<Conversation> =>
  fc
    .record({
      kind: fc.constantFrom('same', 'shuffle', 'args', 'split', 'empty', 'drop', 'system', 'answer'),
      at: fc.nat(),
      pick: fc.nat(),
      args: fc.constantFrom(...ARGS),
    })
    .map(({ kind, at, pick, args }) => {
      const turns = c.turns.map((t) => ({ text: t.text, calls: t.calls && [...t.calls] }));
      const k = turns.length === 0 ? -1 : at % turns.length;
      const target = k === -1 ? undefined : turns[k];
      switch (kind) {
        case 'shuffle':
          if (target?.calls) target.calls.reverse();
          break;
        case 'args':
          if (target?.calls && target.calls.length > 0) {
            const i = pick % target.calls.length;
            target.calls[i] = { name: (target.calls[i] as GeneratedCall).name, args };
          }
          break;
        case 'split':
          if (target?.calls && target.calls.length > 1) {
            turns.splice(k + 1, 0, { text: null, calls: target.calls.splice(1) });
          }
          break;
        case 'empty':
          turns.splice(k + 1, 0, { text: null, calls: pick % 2 === 0 ? null : [] });
          break;
        case 'drop':
          if (k !== -1) turns.splice(k, 1);
          break;
        case 'system':
          return { ...c, turns, system: !c.system };
        case 'answer':
          return { ...c, turns, answer: !c.answer };
      }
      return { ...c, turns };
    });

/** An (output, reference) pair of OpenAI message lists: independent, or the reference an edit of the output. */
export const openAIPair: fc.Arbitrary<[OpenAIMessage[], OpenAIMessage[]]> = fc.oneof(
  fc
    .tuple(conversation, conversation)
    .map(([a, b]): [OpenAIMessage[], OpenAIMessage[]] => [toMessages(a), toMessages(b)]),
  conversation.chain((a) =>
    edit(a).map((b): [OpenAIMessage[], OpenAIMessage[]] => [toMessages(a), toMessages(b)]),
  ),
);
