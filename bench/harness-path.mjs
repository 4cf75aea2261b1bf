// The whole recording path of a live run, as `runAgent` drives it with the AI SDK harness, without the SDK itself:
// per step, the model call through `cassetteModel`, the tool call through `run.tools(cassetteTools(...))` and the step
// through `onStepFinish`; at the end of a run, `workup()`, saving the workup folder and flushing the cassette. Timed
// against the same loop calling the model and the tool bare, on a scripted model that answers at once.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const STEPS = 20; // tool calls per run
export const RUNS = 5; // runs recorded into one cassette (one test file's)

const entities = ['Halberd', 'Ash Cell', 'Compound-Alpha', 'Wren', 'Depot-Seven', 'Kestrel Group'];
const usage = {
  inputTokens: { total: 900, noCache: 900, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 40, text: 40, reasoning: undefined },
};
const toolDefs = [
  {
    type: 'function',
    name: 'graph_query',
    description: 'Facts of the entity graph that touch an entity, of one relation when given.',
    inputSchema: {
      type: 'object',
      properties: { entity: { type: 'string' }, relation: { type: 'string' } },
      required: ['entity'],
    },
  },
];
const facts = (entity) => [
  { subject: entity, relation: 'MEMBER_OF', object: 'Ash Cell', store: 'graph' },
  { subject: entity, relation: 'CO_LOCATED', object: 'Compound-Alpha', store: 'graph' },
  { subject: 'Wren', relation: 'CO_LOCATED', object: entity, store: 'graph' },
];
const ledger = ({ output }) => (Array.isArray(output) ? output : undefined);

/** A v3 model answering step i with a graph_query call, then with the note. */
function scriptedModel() {
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate(options) {
      const step = options.prompt.filter((m) => m.role === 'tool').length;
      if (step >= STEPS) {
        return {
          content: [{ type: 'text', text: 'Compound-Alpha links Halberd to Wren. [cite:call-1]' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      const input = { entity: entities[step % entities.length], relation: 'CO_LOCATED' };
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `call-${step + 1}`,
            toolName: 'graph_query',
            input: JSON.stringify(input),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
        response: { id: `resp-${step}`, modelId: 'scripted', timestamp: new Date(0) },
      };
    },
    async doStream() {
      throw new Error('not streamed');
    },
  };
}

/**
 * One agent run of STEPS tool calls and a final answer. `harness`: the library's recording path (or `undefined` for
 * the bare loop). Returns nanoseconds spent in the steps and in the end of the run.
 */
async function oneRun(lib, cassette, run, dir) {
  const model = scriptedModel();
  const rawTools = {
    graph_query: { description: 'graph', inputSchema: {}, execute: async ({ entity }) => facts(entity) },
  };
  let recorder;
  let recording;
  let wrappedModel = model;
  let tools = rawTools;
  const view = cassette?.forTrial ? cassette.forTrial(1) : cassette;
  if (lib) {
    recorder = lib.createRecorder({
      id: `run-${run}`,
      task: 'bench',
      trial: 1,
      input: 'Who links Halberd to Wren?',
      ledger,
    });
    recording = lib.recordAiSdk(recorder);
    wrappedModel = lib.cassetteModel(model, view);
    tools = recording.tools(lib.cassetteTools(rawTools, view));
  }
  const prompt = [
    { role: 'system', content: 'You are an analyst. Cite every claim.' },
    { role: 'user', content: [{ type: 'text', text: `Who links Halberd to Wren? (run ${run})` }] },
  ];
  const start = process.hrtime.bigint();
  const startCpu = process.cpuUsage();
  for (;;) {
    const result = await wrappedModel.doGenerate({
      prompt: prompt.slice(),
      tools: toolDefs,
      maxOutputTokens: 1000,
      temperature: 0,
      headers: { authorization: 'Bearer sk-proj-abcdefghijklmnopqrstuvwxyz' },
    });
    const part = result.content[0];
    if (part.type === 'text') {
      recording?.onStepFinish({
        content: result.content,
        text: part.text,
        usage: { inputTokens: 900, outputTokens: 40 },
        finishReason: 'stop',
        model: { modelId: 'scripted' },
      });
      break;
    }
    const input = JSON.parse(part.input);
    const output = await tools.graph_query.execute(input, { toolCallId: part.toolCallId, messages: [] });
    recording?.onStepFinish({
      content: [
        { type: 'tool-call', toolCallId: part.toolCallId, toolName: 'graph_query', input },
        { type: 'tool-result', toolCallId: part.toolCallId, toolName: 'graph_query', input, output },
      ],
      usage: { inputTokens: 900, outputTokens: 40 },
      finishReason: 'tool-calls',
      model: { modelId: 'scripted' },
    });
    prompt.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: part.toolCallId, toolName: 'graph_query', input }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: part.toolCallId,
            toolName: 'graph_query',
            output: { type: 'json', value: output },
          },
        ],
      },
    );
  }
  const stepsNs = Number(process.hrtime.bigint() - start);
  const stepsCpu = process.cpuUsage(startCpu);
  const end = process.hrtime.bigint();
  const endCpu = process.cpuUsage();
  if (lib) {
    const workup = recorder.workup();
    await lib.saveWorkup(
      { ...workup, meta: { ...workup.meta, ...(view?.use ? { cassette: view.use() } : {}) } },
      join(dir, `run-${run}`),
    );
    await cassette.flush();
  }
  const cpu = process.cpuUsage(endCpu);
  return {
    stepsNs,
    stepsCpuUs: stepsCpu.user + stepsCpu.system,
    endNs: Number(process.hrtime.bigint() - end),
    endCpuUs: cpu.user + cpu.system,
  };
}

/**
 * RUNS runs recorded into a fresh cassette (`record`), then the same runs replayed from it (`replay`), or the bare
 * loop: wall and CPU time (all threads: file writes included) per tool call in the steps (a model call and a tool
 * call each), and per run at its end.
 */
export async function measure(lib) {
  const dir = await mkdtemp(join(tmpdir(), 'needlework-harness-bench-'));
  try {
    await mkdir(join(dir, 'cassettes'), { recursive: true }); // the base commit's cassette made no folder
    const out = {};
    for (const mode of lib ? ['record', 'replay'] : ['bare']) {
      const cassette = lib
        ? await lib.CallCassette.open({ file: join(dir, 'cassettes', 'agent.json'), mode })
        : undefined;
      const sum = { stepsNs: 0, stepsCpuUs: 0, endNs: 0, endCpuUs: 0 };
      for (let run = 0; run < RUNS; run++) {
        const t = await oneRun(lib, cassette, run, join(dir, mode));
        for (const key of Object.keys(sum)) sum[key] += t[key];
      }
      const calls = RUNS * STEPS;
      out[mode] = {
        callUs: sum.stepsNs / calls / 1000,
        callCpuUs: sum.stepsCpuUs / calls,
        runMs: sum.endNs / RUNS / 1e6,
        runCpuMs: sum.endCpuUs / RUNS / 1000,
      };
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
