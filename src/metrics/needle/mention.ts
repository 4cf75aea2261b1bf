import { normalizeAnswer } from '../hotpot.js';

/**
 * A text's HotpotQA-normalized tokens (`normalize_answer` of hotpot_evaluate_v1.py: lower-cased, ASCII punctuation
 * removed, a/an/the dropped, whitespace collapsed), padded with a space at each end so that one `includes` tests
 * contiguous token-sequence containment: `" compoundalpha "` is in `" at compoundalpha facility "`, and `" ash "`
 * is not in `" ashford "`. The empty string when nothing is left.
 */
export function tokenForm(text: string): string {
  let form = memo.get(text);
  if (form === undefined) {
    const normalized = normalizeAnswer(text);
    form = normalized === '' ? '' : ` ${normalized} `;
    // Entity names recur in every claim and every workup; a bounded memo keeps normalizing them cheap.
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, form);
  }
  return form;
}

const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

/** Whether `haystack`'s tokens contain `needle`'s as a contiguous run (both from `tokenForm`). Nothing is never mentioned. */
export function mentions(haystack: string, needle: string): boolean {
  return needle !== '' && haystack.includes(needle);
}
