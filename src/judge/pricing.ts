import type { TokenCount } from './types.js';

/** A model's price in USD per 1 million tokens, as providers publish it. */
export interface ModelPrice {
  /** USD per 1M prompt tokens. */
  input: number;
  /** USD per 1M completion tokens. */
  output: number;
}

/** Prices by model name, exactly as the model is named in requests (or as the server names it in answers). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * The cost of `tokens` in USD, or undefined when neither name has a price or the tokens are unknown: an unknown
 * cost is reported as unknown, never as a free 0 that would hide spend in a report.
 */
export function costUsd(
  tokens: TokenCount | undefined,
  prices: PriceTable | undefined,
  ...models: Array<string | undefined>
): number | undefined {
  if (!tokens || !prices) return undefined;
  for (const model of models) {
    const price = model !== undefined && Object.hasOwn(prices, model) ? prices[model] : undefined;
    if (price) return (tokens.input * price.input + tokens.output * price.output) / 1_000_000;
  }
  return undefined;
}
