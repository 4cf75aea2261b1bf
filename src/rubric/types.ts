import type { JudgeErrorInfo, TokenCount } from '../judge/types.js';
import type { AnchorLevel } from '../model/spec.js';

/**
 * The result shapes of rubric scoring. They are public API: the `toScoreRubric` matcher, the YAML rubric tests and
 * the reporters show them, and they cross from Vitest workers to reporters, so every field is plain JSON (no
 * `undefined`-only meaning, no NaN, no functions).
 */

/** What a set of judge calls cost. */
export interface UsageTotals {
  /** Judgements asked for. */
  requests: number;
  /** Judgements answered from a cassette (free). */
  cached: number;
  /** Chat completion calls made over the network, retries included. */
  calls: number;
  /** Prompt and completion tokens summed; absent when some judgement's tokens are unknown. */
  tokens?: TokenCount;
  /** USD, cached judgements counting 0; absent when some live judgement's cost is unknown (no price). */
  costUsd?: number;
}

/** One sample of one criterion: the judge's verdict or why there is none. */
export type SampleResult =
  | {
      /** 0-based sample index. */
      sample: number;
      /** The anchor order the prompt listed, best-to-worst or otherwise. */
      anchorOrder: AnchorLevel[];
      ok: true;
      score: number;
      rationale: string;
      model: string;
      /** True when the verdict came from a cassette (free). */
      cached: boolean;
      /** Chat completion calls made over the network, retries included. */
      calls: number;
      tokens?: TokenCount;
      costUsd?: number;
    }
  | {
      sample: number;
      anchorOrder: AnchorLevel[];
      ok: false;
      error: JudgeErrorInfo;
      model: string;
      cached: boolean;
      calls: number;
      tokens?: TokenCount;
      costUsd?: number;
    };

/** How far the samples of one criterion agree: the judge's reliability beside its score. */
export interface Agreement {
  /** The valid sample scores, in sample order. */
  scores: number[];
  /** Highest minus lowest valid score (0 when all agree), on the 1-5 scale. */
  spread: number;
  /** Share of valid samples whose score equals the median, in [0, 1]. */
  agreement: number;
}

export interface CriterionScore {
  criterion: string;
  title: string;
  question: string;
  weight: number;
  /** The lowest passing score, 1 to 5. */
  threshold: number;
  /**
   * The median of the valid samples (a half point when an even number of them splits), or null when no sample gave
   * a verdict, or a sample was missing from the cassette (`error` says why). Its verdict is decided by the checks
   * (`criterionVerdict`, src/checks/rubric.ts), not here.
   */
  score: number | null;
  agreement: Agreement | null;
  /** The rationale of the first sample that scored the median (or nearest it), for a reader. */
  rationale: string | null;
  /** Samples asked for. */
  samplesRequested: number;
  /** Samples that gave a verdict. */
  samplesValid: number;
  samples: SampleResult[];
  /**
   * Why there is no score: the cassette miss, else the last sample's failure, with the raw answers and what was
   * expected.
   */
  error?: JudgeErrorInfo;
  usage: UsageTotals;
}

export interface RubricScore {
  rubric: string;
  title?: string;
  /** The rubric's file, when it was loaded from one. */
  rubricFile?: string;
  workup: string;
  workupPath?: string;
  /** The model asked (the judge's), when known. */
  model?: string;
  samples: number;
  criteria: CriterionScore[];
  /**
   * Weighted mean of the scored criteria's medians, 1 to 5 (weights from the rubric); null when none scored.
   * When `complete` is false it covers only the scored criteria.
   */
  total: number | null;
  /** True when every criterion scored. */
  complete: boolean;
  /** The lowest passing total, 1 to 5. Its verdict is decided by the checks (`rubricVerdict`, src/checks/rubric.ts). */
  threshold: number;
  usage: UsageTotals;
}
