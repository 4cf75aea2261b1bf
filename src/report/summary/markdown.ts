import { byteCompare } from '../../model/order.js';
import type { CheckRecord } from '../checks.js';
import { expectationText } from '../format.js';
import { type GateText, statusWords } from '../gate-text.js';
import { markdownCell } from './escape.js';

export interface SummaryInput {
  checks: readonly CheckRecord[];
  /**
   * The comparison with the run's baseline, in the words of every output (`gateText`): right under the counts, what
   * regressed first. Absent when no baseline is known (no history, or a first run).
   */
  gate?: GateText;
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

/** How many changed cases the summary's table lists before `... and N more`. */
const GATE_ROWS = 50;

/**
 * The gate's section: its headline (the whole story when nothing changed), then a table of every case x criterion
 * that changed, regressed first, with both sides and the reason, then the counts and the notes.
 */
function gateLines(gate: GateText): string[] {
  const lines = [`### ${gate.regressed ? '❌' : '✅'} ${markdownCell(gate.headline)}`, ''];
  lines.push(`Compared with ${markdownCell(gate.baseline)}.`);
  if (gate.rows.length > 0) {
    lines.push('', '| | case | criterion | before | after | why |', '| --- | --- | --- | --- | --- | --- |');
    for (const row of gate.rows.slice(0, GATE_ROWS))
      lines.push(
        `| ${statusWords(row.status)} | ${markdownCell(row.case)} | ${markdownCell(row.criterion)} | ${markdownCell(row.before)} | ${markdownCell(row.after)} | ${markdownCell([row.basis, row.reason].filter(Boolean).join(': '))} |`,
      );
    if (gate.rows.length > GATE_ROWS) lines.push('', `... and ${gate.rows.length - GATE_ROWS} more.`);
    lines.push('', markdownCell(gate.counts));
  }
  for (const note of gate.notes) lines.push('', `Note: ${markdownCell(note)}`);
  return lines;
}
