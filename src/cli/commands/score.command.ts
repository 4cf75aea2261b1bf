import type { CommandSpec } from '../command.js';
import { wholeNumber } from '../options.js';
import {
  ENTAIL,
  entailSettings,
  JSON_OUTPUT,
  JUDGE,
  many,
  NLI_MODEL,
  NO_CACHE,
  SAMPLES,
} from '../shared-options.js';

export const scoreCommand: CommandSpec = {
  usage: 'score <workup>',
  description: 'Score a workup: citations, tradecraft, needles and trajectory, as a scorecard',
  options: [
    {
      flags: '--needle <spec>',
      description: 'A needle spec to score against (repeatable; default: every needle in ./needles)',
    },
    {
      flags: '--gold <trajectory>',
      description: "A gold trajectory (default: the workup's gold.trajectory.json)",
    },
    JSON_OUTPUT,
    ENTAIL,
    NLI_MODEL,
    NO_CACHE,
    { flags: '--rubric <spec>', description: 'Also score a rubric with an LLM judge (repeatable)' },
    JUDGE,
    SAMPLES,
    {
      flags: '--tradecraft',
      description:
        "Lint the note's estimative language against ICD 203 (default: only when a needle is scored)",
    },
  ],
  examples: [
    'needlework score fixtures/workups/grounded',
    'needlework score fixtures/workups/guessed --needle needles/compound-alpha.needle.yaml --json',
  ],
  async run({ args: [workup], options, io }) {
    const { runScore } = await import('./score.js');
    const entail = entailSettings(options);
    return runScore(
      {
        workup: workup as string,
        needles: many(options['needle']),
        ...(typeof options['gold'] === 'string' && { gold: options['gold'] }),
        json: options['json'] === true,
        ...(options['tradecraft'] === true && { tradecraft: true }),
        ...(entail && { entail }),
        ...(options['rubric'] !== undefined && { rubrics: many(options['rubric']) }),
        ...(typeof options['judge'] === 'string' && { judge: options['judge'] }),
        ...(options['samples'] !== undefined && { samples: wholeNumber(options, 'samples') }),
      },
      io,
    );
  },
};
