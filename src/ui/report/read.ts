import { gunzipSync } from 'node:zlib';
import type { ReportInfo } from '../client/types.js';

/** What a static report holds: what it says of itself, and each API answer it inlines, by its path. */
export interface ReportContents {
  info: ReportInfo;
  /** Each answer by the API path the client asks for it (`/api/runs/<id>`, `/api/compare?current=<id>`, ...). */
  answers: Map<string, unknown>;
}

/**
 * Reads the data out of a static HTML report, as a tool (or a test) would: what the page says of itself
 * (`needlework-report`), and each answer where `needlework-index` says it lies in the segments of `needlework-answers-<n>`
 * (gzip, base64; see `htmlPageChunks`). Each answer is the JSON the served UI answers its path with; its types are `RunDetail`,
 * `Comparison`, `TrialsView`, `Trends`, `WorkupAnswer` and `PlainTests`.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { gzipSync } from 'node:zlib';
 * import { readReport } from 'needlework';
 *
 * // A report's blocks as the HTML reporter writes them (a real one: needlework-report/report.html after a run in CI).
 * const answer = JSON.stringify({ run: { id: 'r1', failed: 0 }, checks: [] });
 * const html = `<script type="application/json" id="needlework-report">{"run":"r1","title":"t","generatedAt":"2026-11-28T10:00:00.000Z","home":"/runs/r1"}</script>
 * <script type="application/octet-stream" id="needlework-answers-0">${gzipSync(answer).toString('base64')}</script>
 * <script type="application/json" id="needlework-index">[["/api/runs/r1",0,0,${answer.length}]]</script>`;
 * const { info, answers } = readReport(html);
 * assert.deepEqual(answers.get(`/api/runs/${info.run}`), { run: { id: 'r1', failed: 0 }, checks: [] });
 * ```
 */
export function readReport(html: string): ReportContents {
  const block = (id: string) =>
    new RegExp(`<script type="[^"]+" id="${id}">([\\s\\S]*?)</script>`).exec(html)?.[1];
  const info = block('needlework-report');
  const index = block('needlework-index');
  if (info === undefined || index === undefined)
    throw new Error('not a needlework HTML report: it lacks its needlework-report or needlework-index block');
  const segments = new Map<number, string>();
  const segment = (n: number): string => {
    let text = segments.get(n);
    if (text === undefined) {
      const packed = block(`needlework-answers-${n}`);
      if (packed === undefined)
        throw new Error(`not a whole needlework HTML report: it lacks needlework-answers-${n}`);
      text = gunzipSync(Buffer.from(packed, 'base64')).toString('utf8');
      segments.set(n, text);
    }
    return text;
  };
  const answers = new Map<string, unknown>();
  for (const [path, n, from, to] of JSON.parse(index) as Array<[string, number, number, number]>)
    answers.set(path, JSON.parse(segment(n).slice(from, to)));
  return { info: JSON.parse(info) as ReportInfo, answers };
}
