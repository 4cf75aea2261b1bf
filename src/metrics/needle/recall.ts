import type { Note } from '../../model/note.js';
import type { NeedleSpec } from '../../model/spec.js';
import type { ClaimUnit } from '../citations/units.js';
import { mentions, segmentForm, tokenForm } from './mention.js';
import type { RecallScore } from './types.js';

/**
 * Needle recall (seed 001, Thread 3: "surfaced it?"): 1 when a claim of the note names the answer or one of its
 * aliases, 0 otherwise. Named means: the answer's HotpotQA-normalized tokens (`normalize_answer`) appear as a
 * contiguous run in the normalized tokens of one claim-making segment, cited or not: `Compound Alpha` is found in
 * "at the Compound Alpha facility." but not in "Compound Alphabet". Punctuation is deleted, not spaced
 * (`Compound-Alpha` normalizes to `compoundalpha`), so a spelling with a space belongs in `aliases`. Sections that
 * make no claims (`Gaps & caveats`, `Provenance`) do not count: naming the answer as an open question is not
 * surfacing it.
 *
 * Not applicable: no note; an answer whose every form normalizes to nothing.
 */
export function needleRecall(
  note: Note | undefined,
  units: readonly ClaimUnit[],
  needle: NeedleSpec,
): RecallScore {
  if (!note) return { value: null, reason: 'the workup has no note' };
  const forms = [needle.answer, ...needle.aliases]
    .map((text) => ({ text, form: tokenForm(text) }))
    .filter((f) => f.form !== '');
  if (forms.length === 0)
    return { value: null, reason: `the answer "${needle.answer}" normalizes to nothing` };
  const segments = new Set(units.map((u) => u.segment));
  for (const segment of segments) {
    const text = segmentForm(segment);
    const found = forms.find((f) => mentions(text, f.form));
    if (found) {
      return {
        value: 1,
        match: { form: found.text, section: segment.section, text: segment.text, position: segment.position },
      };
    }
  }
  return {
    value: 0,
    reason: `no claim names ${forms.map((f) => `"${f.text}"`).join(' or ')}`,
  };
}
