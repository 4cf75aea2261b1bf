/** A claim (`hypothesis`) and the source text it is checked against (`premise`). */
export interface EntailmentPair {
  premise: string;
  hypothesis: string;
}

/**
 * Scores whether premises entail hypotheses: for each pair, the probability in [0, 1] that the premise entails the
 * hypothesis. Implementations: the ONNX NLI verifier, and deterministic fakes in tests.
 */
export interface EntailmentVerifier {
  score(pairs: readonly EntailmentPair[]): Promise<number[]>;
}
