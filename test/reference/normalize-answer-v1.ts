// normalizeAnswer of src/metrics/hotpot.ts as it stood at commit 348d88e (three regular expressions for every text),
// kept verbatim as the baseline of test/metrics/hotpot-differential.test.ts. Not part of the package.

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
  const text = s.toLowerCase().replace(PUNCTUATION, '').replace(ARTICLES, ' ');
  return text
    .split(PY_WHITESPACE)
    .filter((token) => token !== '')
    .join(' ');
}
