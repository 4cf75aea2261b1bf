/** What ran, as one workup's meta names it: the model and the agent's version, each absent when it names none. */
export interface WorkupEnvironment {
  model?: string;
  agentVersion?: string;
}

/**
 * A workup's model (`meta.model`: a string, or an SDK's `{ modelId }`) and agent version (`agentVersion`,
 * `agent_version`, or `agent.version`), from its meta as read (a number is taken as its text, an empty string as
 * none). The test worker puts it on each workup's describe (`needleworkEnvironment`) and the reporters read it from
 * there, or from the workup's meta when no describe carries it.
 */
export function workupEnvironment(meta: Readonly<Record<string, unknown>> | undefined): WorkupEnvironment {
  const environment: WorkupEnvironment = {};
  const model =
    text(meta?.['model']) ?? text((meta?.['model'] as { modelId?: unknown } | undefined)?.modelId);
  const version =
    text(meta?.['agentVersion']) ??
    text(meta?.['agent_version']) ??
    text((meta?.['agent'] as { version?: unknown } | undefined)?.version);
  if (model) environment.model = model;
  if (version) environment.agentVersion = version;
  return environment;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
