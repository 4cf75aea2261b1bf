import type { ReportInfo } from '../../ui/client/types.js';

/** What a static report holds: what it says of itself, and each API answer it inlines, by its path. */
export interface ReportContents {
  info: ReportInfo;
  /** Each answer by the API path the client asks for it (`/api/runs/<id>`, `/api/compare?current=<id>`, ...). */
  answers: Map<string, unknown>;
}

/**
 * Reads the data out of a static HTML report, as a tool (or a test) would: the page's `needlework-report` block and
 * its `data-api` blocks (see `htmlPageChunks`). Each answer is the JSON the served UI answers its path with; its types
 * are `RunDetail`, `Comparison`, `TrialsView`, `Trends`, `WorkupAnswer` and `PlainTests`.
 */
export function readReport(html: string): ReportContents {
  const info = /<script type="application\/json" id="needlework-report">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (info === undefined) throw new Error('not a needlework HTML report: it has no needlework-report block');
  const answers = new Map<string, unknown>();
  for (const m of html.matchAll(/<script type="application\/json" data-api="([^"]*)">([\s\S]*?)<\/script>/g))
    answers.set(
      (m[1] as string).replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
      JSON.parse(m[2] as string),
    );
  return { info: JSON.parse(info) as ReportInfo, answers };
}
