/**
 * What a recorded call was: a tool's or a model's, its name, its canonical arguments (secrets redacted), and the trial
 * it was made in (absent in a cassette recorded without trials, whose one recording every trial reads).
 */
export interface CallRequest {
  kind: 'tool' | 'model';
  name: string;
  args: unknown;
  trial?: number;
}
