import type { CommandSpec } from '../command.js';

export const validateCommand: CommandSpec = {
  usage: 'validate [...paths]',
  description: 'Check specs (needles, rubrics, task cases) and workups against their schemas',
  options: [],
  examples: ['needlework validate needles/', 'needlework validate needles fixtures/workups'],
  async run({ args: [paths], io }) {
    const { runValidate } = await import('./validate.js');
    const given = paths as string[];
    return runValidate({ paths: given.length > 0 ? given : ['needles'] }, io);
  },
};
