import type { ReportInfo } from './types.js';

// The static report: the same client over one run's answers, inlined in the page, so it opens from `file://` with no
// server. The page holds a `<script type="application/json" id="needlework-report">` (the run, the title, the view to
// open first), the answers' JSON one after another, in segments each gzip-compressed and base64-encoded
// (`needlework-answers-<n>`), and where each answer lies by its API path (`needlework-index`); each is the very JSON the
// server answers that path with (built by the same functions, src/ui/answers.ts). `inlined` is undefined in the served
// UI.

/** The answers a report holds: each segment inflated when first needed, each answer parsed when first asked for. */
export class InlinedAnswers {
  private readonly index = new Map<string, [number, number, number]>();
  private readonly segments = new Map<number, Promise<string>>();
  private readonly parsed = new Map<string, Promise<unknown>>();

  constructor(
    readonly info: ReportInfo,
    index: Array<[string, number, number, number]>,
    private readonly packed: (segment: number) => string,
  ) {
    for (const [path, segment, from, to] of index) this.index.set(answerKey(path), [segment, from, to]);
  }

  /** The answer to an API path, or undefined when the report does not hold it. */
  answer<T>(path: string): Promise<T> | undefined {
    const key = answerKey(path);
    const at = this.index.get(key);
    if (!at) return undefined;
    let found = this.parsed.get(key);
    if (!found) {
      const [segment, from, to] = at;
      let text = this.segments.get(segment);
      if (!text) {
        text = inflate(this.packed(segment));
        this.segments.set(segment, text);
      }
      found = text.then((whole) => JSON.parse(whole.slice(from, to)));
      this.parsed.set(key, found);
    }
    return found as Promise<T>;
  }

  /** Whether the report holds an answer to `path`. */
  holds(path: string): boolean {
    return this.index.has(answerKey(path));
  }

  /** The values of `param` among the answers held for the API path `path` (the trends' `last`, say). */
  values(path: string, param: string): string[] {
    const out: string[] = [];
    for (const key of this.index.keys()) {
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

/** The answers' text: base64, then gzip, undone by the browser's own DecompressionStream. */
async function inflate(base64: string): Promise<string> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
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
  const info = document.getElementById('needlework-report');
  const index = document.getElementById('needlework-index');
  if (!info || !index) return undefined;
  return new InlinedAnswers(
    JSON.parse(info.textContent ?? '{}') as ReportInfo,
    JSON.parse(index.textContent ?? '[]') as Array<[string, number, number, number]>,
    (segment) => document.getElementById(`needlework-answers-${segment}`)?.textContent ?? '',
  );
}

/** The report's answers; undefined in the served UI. */
export const inlined: InlinedAnswers | undefined = readReport();
