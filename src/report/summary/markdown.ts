import type { Regression } from '../../history/compare.js';
import { formatRegression } from '../../history/gate.js';
import type { ChangeStatus } from '../../history/significance.js';
import { byteCompare } from '../../model/order.js';
import type { CheckRecord } from '../checks.js';
import { expectationText } from '../format.js';
import { gateText, type RunGate } from '../run-history.js';
import { markdownCell } from './escape.js';

export interface SummaryInput {
  checks: readonly CheckRecord[];
  /**
   * The regressions against the trend baseline, with a label for the baseline (`run 12 (a1b2c3d)`); absent when no
   * baseline is known (no trend history, or a first run).
   */
  regressions?: { baseline: string; list: readonly Regression[] };
  /**
   * The statistical gate against the trend baseline (`compareRuns` and `pairCases`), with a label for the baseline:
   * each criterion that moved, each case that dropped with its counts and p-value (`droppedCases`, as `casesToName`
   * selects them), and the cases only one run holds. Absent when no baseline is known.
   */
  gate?: RunGate;
  /**
   * How a workup's `workupPath` is shown: the path to print (project-relative) and a link to it (its page on the
   * forge), if any. Without it the path is printed as recorded, without a link.
   */
  workupPlace?: (workupPath: string) => { path: string; href?: string };
}

/** Percent to one decimal place: `85.7%`. */
function percent(part: number, whole: number): string {
  return `${(Math.round((part / whole) * 1000) / 10).toFixed(1)}%`;
}

/**
 * The GitHub Actions job summary of a run, as Markdown: the pass rate, the regressions against the trend baseline
 * when one is known, every failing test with its message, and a line per workup with its path (a link when the
 * repository's address is known). Everything that comes from a test or a note is escaped.
 */
export function buildSummaryMarkdown(input: SummaryInput): string {
  const { checks } = input;
  const passed = checks.filter((c) => c.state === 'passed').length;
  const failed = checks.filter((c) => c.state === 'failed');
  const skipped = checks.length - passed - failed.length;
  const ran = passed + failed.length;
  const lines: string[] = [];
  lines.push(
    ran === 0
      ? `## needlework: no test ran (${skipped} skipped)`
      : `## needlework: ${passed} of ${ran} passed (${percent(passed, ran)})${failed.length === 0 ? ' ✅' : ' ❌'}`,
  );
  lines.push(
    '',
    '| passed | failed | skipped or not applicable | pass rate |',
    '| ---: | ---: | ---: | ---: |',
  );
  lines.push(`| ${passed} | ${failed.length} | ${skipped} | ${ran === 0 ? 'n/a' : percent(passed, ran)} |`);

  if (input.regressions) {
    const { baseline, list } = input.regressions;
    lines.push('', `### Regressions against ${markdownCell(baseline)}`, '');
    if (list.length === 0) lines.push('None.');
    for (const r of list) lines.push(`- ${markdownCell(formatRegression(r))}`);
  }
  if (input.gate) lines.push('', ...gateLines(input.gate));

  if (failed.length > 0) {
    lines.push('', `### Failing (${failed.length})`, '', '| test | message |', '| --- | --- |');
    for (const check of failed) {
      const meta = check.meta;
      const name =
        meta && meta.specKind !== 'matcher'
          ? `${meta.spec} / ${meta.workup} / ${meta.criterion}`
          : `${check.file} › ${check.fullName}`;
      const message =
        meta?.verdict === 'fail' ? expectationText(meta) : (check.errors[0]?.message ?? 'failed');
      lines.push(`| ${markdownCell(name)} | ${markdownCell(message)} |`);
    }
  }

  const workups = workupLines(checks, input.workupPlace ?? ((path) => ({ path })));
  if (workups.length > 0) lines.push('', `### Workups (${workups.length})`, '', ...workups);
  return `${lines.join('\n')}\n`;
}

/** `- ✅ grounded: [fixtures/workups/grounded](link) (6 passed)`, one per workup, in byte order of the id. */
function workupLines(
  checks: readonly CheckRecord[],
  placeOf: NonNullable<SummaryInput['workupPlace']>,
): string[] {
  const byWorkup = new Map<string, { path?: string; passed: number; failed: number; skipped: number }>();
  for (const check of checks) {
    if (!check.meta) continue;
    const entry = byWorkup.get(check.meta.workup) ?? { passed: 0, failed: 0, skipped: 0 };
    if (check.meta.workupPath) entry.path = check.meta.workupPath;
    if (check.state === 'passed') entry.passed++;
    else if (check.state === 'failed') entry.failed++;
    else entry.skipped++;
    byWorkup.set(check.meta.workup, entry);
  }
  return [...byWorkup.entries()]
    .sort(([a], [b]) => byteCompare(a, b))
    .map(([id, w]) => {
      const place = w.path === undefined ? undefined : placeOf(w.path);
      const where =
        place === undefined
          ? 'path unknown'
          : place.href
            ? `[${markdownCell(place.path)}](${place.href.replaceAll('(', '%28').replaceAll(')', '%29')})`
            : `<code>${markdownCell(place.path)}</code>`;
      const counts = [
        `${w.passed} passed`,
        w.failed > 0 ? `${w.failed} failed` : '',
        w.skipped > 0 ? `${w.skipped} skipped` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return `- ${w.failed > 0 ? '❌' : '✅'} <code>${markdownCell(id)}</code>: ${where} (${counts})`;
    });
}

const MARKS: Record<ChangeStatus, string> = { regressed: '❌', improved: '⬆️', flaky: '〰️', 'no-change': '·' };

/**
 * The gate's section: the counts by status, the cases only one run holds, then each criterion that moved (or has a
 * case that fell significantly on its own) with the cases that dropped beneath it, most significant first.
 */
function gateLines(gate: RunGate): string[] {
  const text = gateText(gate);
  const lines = [`### ${markdownCell(text.heading)}`, '', text.counts];
  if (text.apart) lines.push('', markdownCell(text.apart));
  if (text.criteria.length > 0) lines.push('');
  for (const c of text.criteria) {
    lines.push(`- ${MARKS[c.status]} ${markdownCell(c.text)}`);
    for (const drop of c.drops) lines.push(`  - ↓ ${markdownCell(drop)}`);
  }
  return lines;
}
