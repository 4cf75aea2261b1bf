import type { Place } from '../../parse/locate.js';
import type { CheckRecord } from '../checks.js';
import { expectationText } from '../format.js';
import { type ClaimPlace, claimPlaces } from '../places/note.js';
import { escapeCommandData, escapeCommandProperty } from './escape.js';

/** One GitHub Actions annotation: `::error file=...,line=...,col=...,title=...::message`. */
export interface Annotation {
  /** Project-relative path with `/` separators (GitHub resolves it against the repository root). */
  file: string;
  /** 1-based; absent when only the file is known. */
  line?: number;
  col?: number;
  title: string;
  message: string;
}

/** Where the reporter found things: each resolved to a project-relative path. */
export interface AnnotationSources {
  /** The place of a YAML-spec check's criterion in its spec file. */
  criterion: (check: CheckRecord) => ({ file: string } & Partial<Place>) | undefined;
  /** The note of a workup (`note.md` of its folder), or for a single-file workup the file itself with `lines: false`. */
  note: (check: CheckRecord) => { file: string; lines: boolean } | undefined;
}

/**
 * The annotations of a run's failures: a failed check at its criterion's line in the spec (a YAML-spec test) or at the
 * test's own line (a hand-written test, a plain test), and each uncited or unsupported claim a failed citation check
 * names at its line in the note. A claim several checks name is annotated once.
 */
export function buildAnnotations(checks: readonly CheckRecord[], sources: AnnotationSources): Annotation[] {
  const out: Annotation[] = [];
  const claims = new Set<string>();
  for (const check of checks) {
    if (check.state !== 'failed') continue;
    const meta = check.meta;
    const generated = meta !== undefined && meta.specKind !== 'matcher';
    const place = generated ? sources.criterion(check) : undefined;
    const at = place ?? { file: check.file, ...(check.line !== undefined && { line: check.line }) };
    out.push({
      file: at.file,
      ...(at.line !== undefined && { line: at.line }),
      ...(place?.column !== undefined && { col: place.column }),
      title: meta
        ? `needlework: ${meta.spec} / ${meta.workup} / ${meta.criterion}`
        : `test failed: ${check.fullName}`,
      message:
        meta?.verdict === 'fail'
          ? expectationText(meta)
          : (check.errors[0]?.message ?? 'failed').split('\n')[0]!,
    });
    if (meta?.verdict !== 'fail') continue;
    const note = sources.note(check);
    if (!note) continue;
    for (const claim of claimPlaces(meta).places) {
      const key = `${note.file}\0${claim.kind}\0${claim.line}\0${claim.column}`;
      if (claims.has(key)) continue;
      claims.add(key);
      out.push(claimAnnotation(note, claim, meta.workup));
    }
  }
  return out;
}

function claimAnnotation(
  note: { file: string; lines: boolean },
  claim: ClaimPlace,
  workup: string,
): Annotation {
  const what = claim.kind === 'uncited' ? 'no citation covers this claim' : 'its citations do not support it';
  return {
    file: note.file,
    // A single-file workup holds its note inside JSON: the note's lines are not the file's.
    ...(note.lines && { line: claim.line, col: claim.column }),
    title: `needlework: ${claim.kind} claim in ${workup}`,
    message: note.lines ? `${what}: ${claim.text}` : `line ${claim.line} of the note: ${what}: ${claim.text}`,
  };
}

/** The workflow command for an annotation, escaped per GitHub's rules. */
export function formatAnnotation(annotation: Annotation): string {
  const props: string[] = [`file=${escapeCommandProperty(annotation.file)}`];
  if (annotation.line !== undefined) props.push(`line=${annotation.line}`);
  if (annotation.col !== undefined) props.push(`col=${annotation.col}`);
  props.push(`title=${escapeCommandProperty(annotation.title)}`);
  return `::error ${props.join(',')}::${escapeCommandData(annotation.message)}`;
}
