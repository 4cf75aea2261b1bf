import { UserError } from '../../errors/index.js';

/**
 * How a model's logits become an entailment probability. Three-label NLI cross-encoders (and two-label
 * entailment/not-entailment ones) take the softmax and read the entailment label; single-logit consistency models
 * (HHEM, MiniCheck) take the sigmoid of their one logit.
 */
export type ScoreHead =
  | { kind: 'softmax'; labels: string[]; entailment: number }
  | { kind: 'sigmoid'; labels: string[] };

/**
 * Label names that mean "the premise supports the hypothesis", compared lower-cased. `not_entailment` is deliberately
 * absent: matching is by the whole name, never by a substring.
 */
const ENTAILMENT_NAMES = new Set(['entailment', 'entails', 'entailed', 'entail', 'supported', 'consistent']);

/**
 * Reads the head from `config.json`'s `id2label`, and the logit count from the graph's output shape when it is
 * static. The label order differs between exports (MNLI models put entailment first or last), so it is read by
 * name and never assumed by position.
 */
export function scoreHead(
  config: Record<string, unknown>,
  configPath: string,
  outputWidth?: number,
): ScoreHead {
  const labels = readLabels(config);
  const width = outputWidth ?? (labels.length > 0 ? labels.length : undefined);
  if (width === 1) return { kind: 'sigmoid', labels: labels.length === 1 ? labels : ['score'] };
  if (labels.length === 0) {
    throw new UserError({
      file: configPath,
      message:
        'missing id2label: expected a label map such as {"0": "contradiction", "1": "neutral", "2": "entailment"}',
    });
  }
  if (width !== undefined && width !== labels.length) {
    throw new UserError({
      file: configPath,
      message: `id2label names ${labels.length} labels but the model outputs ${width} logits`,
    });
  }
  const entailment = labels.findIndex((label) => ENTAILMENT_NAMES.has(label.trim().toLowerCase()));
  if (entailment < 0) {
    throw new UserError({
      file: configPath,
      message: `id2label has no entailment label (found ${labels.map((l) => JSON.stringify(l)).join(', ')}; expected one named "entailment")`,
    });
  }
  return { kind: 'softmax', labels, entailment };
}

/** `id2label` as an array indexed by logit position; empty when the config has none. */
function readLabels(config: Record<string, unknown>): string[] {
  const map = config.id2label;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return [];
  const labels: string[] = [];
  for (const [key, value] of Object.entries(map as Record<string, unknown>)) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || typeof value !== 'string') continue;
    labels[index] = value;
  }
  return Array.from(labels, (label, i) => label ?? `LABEL_${i}`);
}

/** Every label's probability for one row of logits (softmax, or the sigmoid of a single logit). */
export function probabilities(head: ScoreHead, logits: ArrayLike<number>, offset: number): number[] {
  if (head.kind === 'sigmoid') return [1 / (1 + Math.exp(-logits[offset]!))];
  const n = head.labels.length;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) max = Math.max(max, logits[offset + i]!);
  const exps: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp(logits[offset + i]! - max);
    exps.push(e);
    sum += e;
  }
  return exps.map((e) => e / sum);
}

/** The entailment probability for one row of logits. */
export function entailmentProbability(head: ScoreHead, logits: ArrayLike<number>, offset: number): number {
  const probs = probabilities(head, logits, offset);
  return head.kind === 'sigmoid' ? probs[0]! : probs[head.entailment]!;
}
