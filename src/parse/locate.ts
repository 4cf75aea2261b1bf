import { type JsonLocator, jsonLocator } from './json-places.js';
import type { Place } from './position.js';

export type { Place } from './position.js';

/** The last few JSON texts placed, with their locators: callers that place many problems in one text scan it once. */
const recent: Array<{ text: string; locator: JsonLocator }> = [];
const RECENT = 4;

/**
 * `locate` for a JSON text that was parsed without positions. The text is scanned once, on its first problem (see
 * `jsonLocator`), and its locator kept for the next calls; a caller that holds the text can also keep
 * `jsonLocator(text)` itself.
 */
export function locateInJson(text: string, path: readonly string[], key?: string): Place | undefined {
  let hit = recent.find((r) => r.text === text);
  if (!hit) {
    hit = { text, locator: jsonLocator(text) };
    recent.unshift(hit);
    if (recent.length > RECENT) recent.pop();
  }
  return hit.locator(path, key);
}
