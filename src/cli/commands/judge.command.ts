import type { CommandSpec } from '../command.js';
import { JSON_OUTPUT, JUDGE, JUDGE_TIMEOUT, SAMPLES } from '../shared-options.js';

export const judgeCommand: CommandSpec = {
  usage: 'judge [...workups]',
  description: 'Score workups on a rubric with an LLM judge (median of samples, agreement, cost)',
  options: [
    { flags: '--rubric <spec>', description: 'The *.rubric.yaml to score (required)' },
    JUDGE,
    {
      flags: '--judge-model, --model <name>',
      description:
        'The judge model (default: NEEDLEWORK_JUDGE_MODEL, else gpt-4o-mini; --model is its old name)',
    },
    SAMPLES,
    { flags: '--temperature <t>', description: 'Sampling temperature (default 0)' },
    {
      flags: '--cassette <file>',
      description: 'Replay verdicts from this cassette; a request it lacks goes to the judge',
    },
    { flags: '--record', description: 'Record new verdicts into --cassette' },
    { flags: '--strict', description: 'Answer only from --cassette; a request it lacks fails (hermetic CI)' },
    JUDGE_TIMEOUT,
    { flags: '--concurrency <n>', description: 'Requests in flight at once (default 4)' },
    {
      flags: '--price <in,out>',
      description: 'The model price in USD per 1M input and output tokens, for the cost line',
    },
    JSON_OUTPUT,
  ],
  examples: [
    'needlework judge fixtures/workups/grounded --rubric needles/icd-203.rubric.yaml --judge http://localhost:11434/v1 --judge-model llama3.1',
    'needlework judge fixtures/workups/grounded --rubric needles/icd-203.rubric.yaml --cassette judge.cassette.json --record',
    'needlework judge fixtures/workups/grounded --rubric needles/icd-203.rubric.yaml --judge replay:judge.cassette.json',
  ],
  async run({ args: [workups], options, io }) {
    const { runJudge, judgeOptions } = await import('./judge.js');
    return runJudge(judgeOptions(workups as string[], options), io);
  },
};
