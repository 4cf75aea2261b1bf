import { pythonJsonDumps } from './trajectory/python-json.js';

/**
 * HotpotQA's answer and supporting-fact scores, exactly as the official evaluation script computes them:
 * `hotpot_evaluate_v1.py` in github.com/hotpotqa/hotpot (functions `normalize_answer`, `f1_score`,
 * `exact_match_score`, `update_sp`). Published numbers are comparable only when every normalization rule and
 * special case is the same, so each one below follows the script, in the script's order.
 */

/** Scores of one prediction against one gold value, each in [0, 1]. */
export interface HotpotScores {
  /** Exact match: 1 or 0. */
  em: number;
  f1: number;
  precision: number;
  recall: number;
}

// Python's `string.punctuation`: the 32 ASCII punctuation characters !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~
const PUNCTUATION = /[!-/:-@[-`{-~]/g;

// `re.sub(r'\b(a|an|the)\b', ' ', text)` on a Python 3 `str`: `\b` is Unicode-aware there, a word character being
// one for which `str.isalnum()` holds, or `_`. That is exactly [\p{L}\p{N}_] (checked against CPython over every
// assigned code point); JavaScript's own `\b` knows only ASCII, so the boundaries are spelled out as lookarounds.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

// `str.split()` with no argument splits on the characters for which `str.isspace()` holds. JavaScript's `\s` differs
// (it has U+FEFF; it lacks U+001C-U+001F and U+0085), so the set is spelled out.
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/**
 * `normalize_answer`: `white_space_fix(remove_articles(remove_punc(lower(s))))`. Lower-cases (full Unicode case
 * mapping, as `str.lower`), removes ASCII punctuation, replaces the whole words a/an/the with a space, then
 * collapses whitespace runs to one space and trims. Punctuation goes before articles, so `"the-end"` becomes `"theend"`
 * and `"a."` becomes `""`.
 */
export function normalizeAnswer(s: string): string {
  const lower = s.toLowerCase();
  return normalizeAscii(lower) ?? normalizeByRegex(lower);
}

/** The last three steps by the script's own regular expressions, for any text. */
function normalizeByRegex(lower: string): string {
  const text = lower.replace(PUNCTUATION, '').replace(ARTICLES, ' ');
  return text
    .split(PY_WHITESPACE)
    .filter((token) => token !== '')
    .join(' ');
}

/**
 * The last three steps in one pass, for a lower-cased text made only of ASCII letters, digits, punctuation and
 * whitespace (most claims and entity names); undefined for any other text. There, once punctuation is deleted, a
 * whitespace-separated token is a run of word characters, so the whole words a/an/the are exactly the tokens equal to
 * them, and dropping those tokens is what replacing them with a space and splitting does. Five times faster than the
 * three regular expressions, which every claim of every note goes through once per scoring.
 */
function normalizeAscii(lower: string): string | undefined {
  let out = '';
  let token = '';
  let pieceStart = -1;
  const n = lower.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? lower.charCodeAt(i) : 0x20;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      if (pieceStart < 0) pieceStart = i;
      continue;
    }
    if (pieceStart >= 0) {
      token += lower.slice(pieceStart, i);
      pieceStart = -1;
    }
    // string.punctuation: !"#$%&'()*+,-./ :;<=>?@ [\]^_` {|}~ (deleted, joining what is on either side).
    if (
      (c >= 0x21 && c <= 0x2f) ||
      (c >= 0x3a && c <= 0x40) ||
      (c >= 0x5b && c <= 0x60) ||
      (c >= 0x7b && c <= 0x7e)
    ) {
      continue;
    }
    // Python's ASCII whitespace: \t \n \v \f \r, U+001C-U+001F and the space. Anything else takes the general path.
    if (!((c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20))) return undefined;
    if (token !== '' && token !== 'a' && token !== 'an' && token !== 'the')
      out = out === '' ? token : `${out} ${token}`;
    token = '';
  }
  return out;
}

const YES_NO = new Set(['yes', 'no', 'noanswer']);

/**
 * `exact_match_score` and `f1_score` of `hotpot_evaluate_v1.py`.
 *
 * - `em` is 1 when the normalized strings are equal (two answers that normalize to `""` match: em 1).
 * - F1, precision and recall are 0 when either normalized side is `yes`, `no` or `noanswer` and the two differ (a
 *   yes/no question has no partial credit), and 0 when the token multisets share nothing, which includes either
 *   side normalizing to no tokens (so two empty answers score em 1, f1 0, as in the script).
 * - Otherwise precision = common / |prediction tokens|, recall = common / |gold tokens| over the multiset
 *   intersection (`Counter(p) & Counter(g)`), f1 = (2·p·r)/(p + r), evaluated in that order so the doubles are
 *   Python's.
 */
export function answerScores(prediction: string, gold: string): HotpotScores {
  const p = normalizeAnswer(prediction);
  const g = normalizeAnswer(gold);
  const em = p === g ? 1 : 0;
  const zero = { em, f1: 0, precision: 0, recall: 0 };
  if (YES_NO.has(p) && p !== g) return zero;
  if (YES_NO.has(g) && p !== g) return zero;
  const predTokens = p === '' ? [] : p.split(' ');
  const goldTokens = g === '' ? [] : g.split(' ');
  const goldCounts = new Map<string, number>();
  for (const token of goldTokens) goldCounts.set(token, (goldCounts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predTokens) {
    const left = goldCounts.get(token);
    if (left !== undefined && left > 0) {
      same++;
      goldCounts.set(token, left - 1);
    }
  }
  if (same === 0) return zero;
  const precision = (1.0 * same) / predTokens.length;
  const recall = (1.0 * same) / goldTokens.length;
  const f1 = (2 * precision * recall) / (precision + recall);
  return { em, f1, precision, recall };
}

/**
 * `update_sp` of `hotpot_evaluate_v1.py`: supporting facts compared as sets. The script turns each item into a
 * tuple (`set(map(tuple, ...))`); here any JSON value is an item, and two items are the same when their canonical
 * JSON (keys sorted at every depth) is the same, so HotpotQA's `[title, sentence_id]` pairs and our facts both
 * work. Duplicates count once.
 *
 * tp = predicted items in gold, fp = predicted items not in gold, fn = gold items not predicted;
 * precision = tp/(tp+fp) if tp+fp > 0 else 0; recall = tp/(tp+fn) if tp+fn > 0 else 0;
 * f1 = 2·p·r/(p+r) if p+r > 0 else 0; em = 1 iff fp + fn == 0.
 *
 * Edge cases, as the script has them: an empty prediction against an empty gold set scores em 1 and f1, precision
 * and recall 0 (nothing was wrong, but nothing was found); an empty prediction against a non-empty gold set scores
 * all 0. The one difference from the script is Python's cross-type equality (`True == 1`, so `("x", True)` equals
 * `("x", 1)` there): JSON values of different types are different items here.
 */
export function supportingFactScores(predicted: readonly unknown[], gold: readonly unknown[]): HotpotScores {
  const pred = new Set(predicted.map(pythonJsonDumps));
  const goldSet = new Set(gold.map(pythonJsonDumps));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const item of pred) {
    if (goldSet.has(item)) tp++;
    else fp++;
  }
  for (const item of goldSet) if (!pred.has(item)) fn++;
  const precision = tp + fp > 0 ? (1.0 * tp) / (tp + fp) : 0.0;
  const recall = tp + fn > 0 ? (1.0 * tp) / (tp + fn) : 0.0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0.0;
  const em = fp + fn === 0 ? 1.0 : 0.0;
  return { em, f1, precision, recall };
}
