import type { CommandSpec } from '../command.js';
import { NLI_MODEL, NO_CACHE } from '../shared-options.js';

export const entailCommand: CommandSpec = {
  usage: 'entail <premise> <hypothesis>',
  description: 'Score how far a premise entails a hypothesis with a local NLI model',
  options: [
    NLI_MODEL,
    NO_CACHE,
    { flags: '--threads <n>', description: 'Threads one inference may use (default: the core count)' },
    { flags: '--quantized', description: 'Use onnx/model_quantized.onnx' },
    {
      flags: '--prompt <text>',
      description: 'The prompt a consistency model expects, with {premise} and {hypothesis}',
    },
  ],
  examples: [
    'needlework entail "Halberd is a member of Ash Cell." "Halberd belongs to Ash Cell." --nli-model ./nli',
    'needlework entail "..." "..." --nli-model hf:Xenova/nli-deberta-v3-xsmall',
  ],
  async run({ args: [premise, hypothesis], options, io }) {
    const { runEntail, entailOptions } = await import('./entail.js');
    return runEntail(entailOptions(premise as string, hypothesis as string, options), io);
  },
};
