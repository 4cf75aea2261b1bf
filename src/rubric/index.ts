export { agreementOf, weightedTotal } from './aggregate.js';
export { anchorOrder } from './anchors.js';
export { formatRubricScore, type Palette, type RubricVerdicts, usageLine } from './format.js';
export { type Material, type MaterialOptions, summarizeLedger, workupMaterial } from './material.js';
export { criterionPrompt, JUDGE_SYSTEM_PROMPT } from './prompt.js';
export { DEFAULT_THRESHOLD, type ScoreRubricOptions, scoreRubric } from './score.js';
export type { Agreement, CriterionScore, RubricScore, SampleResult, UsageTotals } from './types.js';
