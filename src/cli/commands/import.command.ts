import type { CommandSpec } from '../command.js';

export const importCommand: CommandSpec = {
  usage: 'import <file>',
  description:
    'Turn a recorded run (OpenAI chat or litellm log, OTel trace or SDK spans, AgentOps trace, SWE-agent or mini-swe-agent trajectory, tau-bench or tau2-bench results, Inspect AI log, OpenHands output.jsonl) into workup folders',
  options: [
    {
      flags: '--from <format>',
      description:
        'openai | otel | otel-sdk | trajectory | swe-agent | tau-bench | mini-swe-agent | tau2-bench | inspect | openhands | agentops (detected from the file when left out)',
    },
    {
      flags: '--out <dir>',
      description:
        'The workup folder to write (several runs: one subfolder each), or a *.workups.jsonl file (one run a line)',
    },
    {
      flags: '--trace <id>',
      description: 'The trace to import when an OTLP file holds several (default: all)',
    },
    { flags: '--force', description: 'Overwrite the files of an existing workup' },
  ],
  examples: [
    'needlework import fixtures/imports/openai-chat.json --out workups/openai-run',
    'needlework import fixtures/imports/otel-genai-trace.json --from otel --out workups/otel-run',
    'needlework import results.json --from tau-bench --out workups/tau',
  ],
  async run({ args: [file], options, io, rawArgs }) {
    const { runImport, importOptions } = await import('./import.js');
    return runImport(importOptions(file as string, options, rawArgs), io);
  },
};
