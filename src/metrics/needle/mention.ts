import type { Segment } from '../../model/note.js';
import { normalizeAnswer } from '../hotpot.js';

/**
 * A text's HotpotQA-normalized tokens (`normalize_answer` of hotpot_evaluate_v1.py: lower-cased, ASCII punctuation
 * removed, a/an/the dropped, whitespace collapsed), padded with a space at each end so that one `includes` tests
 * contiguous token-sequence containment: `" compoundalpha "` is in `" at compoundalpha facility "`, and `" ash "`
 * is not in `" ashford "`. The empty string when nothing is left.
 */
export function tokenForm(text: string): string {
  // Entity names recur in every claim and every workup: a bounded memo of short texts keeps normalizing them
  // cheap. Claim texts are each seen once or twice and are not worth keeping.
  const short = text.length <= MEMO_TEXT_LIMIT;
  let form = short ? memo.get(text) : undefined;
  if (form === undefined) {
    const normalized = normalizeAnswer(text);
    form = normalized === '' ? '' : ` ${normalized} `;
    if (short) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(text, form);
    }
  }
  return form;
}

const MEMO_TEXT_LIMIT = 64;

const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

/** Whether `haystack`'s tokens contain `needle`'s as a contiguous run (both from `tokenForm`). Nothing is never mentioned. */
export function mentions(haystack: string, needle: string): boolean {
  return needle !== '' && haystack.includes(needle);
}

const segmentForms = new WeakMap<Segment, string>();

/**
 * `tokenForm` of a segment's whole text, computed once per segment however many needles are scored against its
 * note (a parsed note is never modified, and the entry goes with the segment).
 */
export function segmentForm(segment: Segment): string {
  let form = segmentForms.get(segment);
  if (form === undefined) {
    form = tokenForm(segment.text);
    segmentForms.set(segment, form);
  }
  return form;
}
