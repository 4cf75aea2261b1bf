import type { ReportInfo } from './types.js';

// The static report: the same client over one run's answers, inlined in the page, so it opens from `file://` with no
// server. The page holds a `<script type="application/json" id="needlework-report">` (the run, the title, the view to
// open first) and one `<script type="application/json" data-api="<path>">` per API answer it holds, each the very JSON
// the server answers that path with (built by the same functions, src/ui/answers.ts). `inlined` is undefined in the
// served UI.

/** The answers a report holds, each parsed when first asked for. */
export class InlinedAnswers {
  private blocks: Map<string, HTMLScriptElement> | undefined;
  private readonly parsed = new Map<string, unknown>();

  constructor(readonly info: ReportInfo) {}

  private held(): Map<string, HTMLScriptElement> {
    if (!this.blocks) {
      this.blocks = new Map();
      for (const block of document.querySelectorAll<HTMLScriptElement>(
        'script[type="application/json"][data-api]',
      ))
        this.blocks.set(answerKey(block.dataset['api'] ?? ''), block);
    }
    return this.blocks;
  }

  /** The answer to an API path, or undefined when the report does not hold it. */
  answer<T>(path: string): T | undefined {
    const key = answerKey(path);
    if (this.parsed.has(key)) return this.parsed.get(key) as T;
    const block = this.held().get(key);
    if (!block) return undefined;
    const value = JSON.parse(block.textContent ?? 'null') as T;
    this.parsed.set(key, value);
    return value;
  }

  /** Whether the report holds an answer to `path`. */
  holds(path: string): boolean {
    return this.held().has(answerKey(path));
  }

  /** The values of `param` among the answers held for the API path `path` (the trends' `last`, say). */
  values(path: string, param: string): string[] {
    const out: string[] = [];
    for (const key of this.held().keys()) {
      const url = new URL(key, BASE);
      const value = url.searchParams.get(param);
      if (url.pathname === path && value !== null) out.push(value);
    }
    return out;
  }

  /** Why `path` cannot be shown from this report, in words. */
  missing(path: string): string {
    const url = new URL(path, BASE);
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const what =
      parts[1] === 'case'
        ? 'A case over time'
        : parts[1] === 'runs' && parts.length === 2
          ? 'The list of runs'
          : parts[1] === 'runs' && parts[2] !== this.info.run
            ? `Run ${parts[2]}`
            : parts[1] === 'trends'
              ? 'The trend over runs'
              : parts[1] === 'compare'
                ? 'This comparison'
                : `${url.pathname}${url.search}`;
    return `${what} is not in this report, which holds run ${this.info.run} alone: the whole history is in the results store (npx needlework ui).`;
  }
}

/** Paths are read against a base of no scheme a browser fetches (a file: base would keep a Windows drive letter). */
export const BASE = 'report:/';

/**
 * An API path as the report keys its answers: each path segment percent-encoded alike, the query's parameters in
 * byte order, and of a workup's only `file` (2 or more: the first file is the default), which is all its answer reads.
 */
export function answerKey(path: string): string {
  const url = new URL(path, BASE);
  const segments = url.pathname.split('/').map((s) => encodeURIComponent(decodeURIComponent(s)));
  const workup = segments[2] === 'runs' && segments[4] === 'workups' && segments.length === 6;
  const params = [...url.searchParams]
    .filter(([name, value]) => value !== '' && (!workup || (name === 'file' && value !== '1')))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  return `${segments.join('/')}${query ? `?${query}` : ''}`;
}

function readReport(): InlinedAnswers | undefined {
  const block = document.getElementById('needlework-report');
  if (!block) return undefined;
  return new InlinedAnswers(JSON.parse(block.textContent ?? '{}') as ReportInfo);
}

/** The report's answers; undefined in the served UI. */
export const inlined: InlinedAnswers | undefined = readReport();
