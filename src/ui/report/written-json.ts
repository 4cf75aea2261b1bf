/**
 * Text already encoded as UTF-8, with its length in UTF-16 code units (what the page's index counts in): an answer's
 * JSON written while the tests ran, held as bytes until the page packs it.
 */
export interface EncodedText {
  bytes: Buffer;
  length: number;
}

/**
 * An answer's JSON written already, in pieces one after another: what the page packs as it is instead of writing the
 * answer's value (`WorkupAnswersAhead` writes each workup's answer as its tests end).
 */
export class WrittenJson {
  constructor(readonly pieces: ReadonlyArray<string | EncodedText>) {}
}
